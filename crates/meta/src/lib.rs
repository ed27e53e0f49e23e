//! Meta programs: one C tree that holds N revisions of a program (each an
//! original tree plus one unified diff), where the revision that runs is
//! picked from the environment (`WEFT_REV=n`, 0 = the original).
