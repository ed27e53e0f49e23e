//! The last step of a report stage: turning the training runs of the
//! original woven with a report's aspect into the report file that
//! strategies' aspects receive as `--arg NAME=PATH`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, bail};

use super::cache::{Counters, KeyHasher, is_fresh, mark_fresh};
use super::exec::Ctx;
use super::fsops::{recreate, shell};
use super::jobs::Arm;
use super::matrix::Observation;
use weft_monitor::ranges::RangeSet;

/// Name of the file a report step writes in its directory.
pub const REPORT_FILE: &str = "report.json";

impl Ctx<'_> {
    /// `WORK/reports/NAME/`: the report's file, key and log.
    pub fn report_dir(&self, report: usize) -> PathBuf {
        self.study
            .work_dir
            .join("reports")
            .join(&self.study.reports[report].name)
    }

    /// The report's file, as passed to strategies' aspects.
    pub fn report_file(&self, report: usize) -> PathBuf {
        self.report_dir(report).join(REPORT_FILE)
    }

    /// Makes the report's file from its training runs: with the study's
    /// `make` command, or else as the union of the runs' ranges (the range
    /// set `weft ranges merge` would write).
    pub fn make_report(&self, report: usize) -> anyhow::Result<()> {
        let arm = Arm::Report(report);
        let spec = &self.study.reports[report];
        let training = self.training_tests();
        // Run keys, not record bytes: records carry pids and times, while a
        // run's key changes exactly when the run is redone for a reason.
        let mut h = KeyHasher::new("report");
        h.str(&self.weft_hash()?).str(&format!("{:?}", spec.make));
        for &t in &training {
            let dir = self.run_dir(arm, 0, t);
            let key = std::fs::read_to_string(dir.join("key"))
                .with_context(|| format!("run {} is not done yet", dir.display()))?;
            h.str(&key);
        }
        let key = h.finish();
        let dir = self.report_dir(report);
        if is_fresh(&dir, &key) {
            Counters::count(&self.counters.reports_reused);
            return Ok(());
        }
        recreate(&dir)?;
        let file = self.report_file(report);
        match &spec.make {
            None => {
                let mut set = RangeSet::default();
                for &t in &training {
                    if let (_, Observation::Ranges(ranges)) = self.load_run(arm, 0, t)? {
                        set.merge(&ranges);
                    }
                }
                std::fs::write(&file, set.to_json())
                    .with_context(|| format!("cannot write {}", file.display()))?;
            }
            Some(cmd) => {
                let runs = self.run_dir(arm, 0, 0);
                let runs = runs.parent().unwrap_or(&runs);
                let env = BTreeMap::from([
                    ("WEFT".to_string(), self.weft.display().to_string()),
                    ("WEFT_RUNS".to_string(), runs.display().to_string()),
                    (
                        "WEFT_TREE".to_string(),
                        self.tree_dir(arm, 0).display().to_string(),
                    ),
                    (
                        "WEFT_WEAVE_DIR".to_string(),
                        self.build_dir(arm, 0).display().to_string(),
                    ),
                    ("WEFT_REPORT".to_string(), file.display().to_string()),
                ]);
                shell(cmd, self.study.base_dir(), &env, &dir.join("make.log"))?;
                if !file.is_file() {
                    bail!("`{cmd}` did not write $WEFT_REPORT ({})", file.display());
                }
            }
        }
        mark_fresh(&dir, &key)?;
        Counters::count(&self.counters.reports_made);
        Ok(())
    }
}
