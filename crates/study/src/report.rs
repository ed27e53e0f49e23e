//! Writing a study's results: Markdown, CSV, JSON and SVG.

use std::path::Path;

use anyhow::Context;
use serde::Serialize;

use super::cache::CacheStats;
use super::collect::Results;
use super::evaluate::Judging;
use super::plot;
use super::study::Study;
use super::summary;
use super::tables::{self, Table};

#[derive(Serialize)]
struct JsonReport<'a> {
    study: &'a str,
    seed: u64,
    draws: u32,
    percentages: &'a [u32],
    /// Percent of alarms on the original's unseen runs within which
    /// detected versions count.
    alarm_budget: f64,
    cache: Option<CacheStats>,
    results: &'a Results,
    tables: &'a [Table],
}

/// Writes `report.md`, `report.json`, `tables/*.csv`, `matrices/*.csv`,
/// `curves.svg` and `per_version.svg` into the study's output directory; returns the
/// one-screen summary (Markdown) that heads `report.md`.
pub fn write(study: &Study, results: &Results, stats: Option<CacheStats>) -> anyhow::Result<String> {
    let out = &study.out_dir;
    let progress = weft_run::Progress::new("experiment (report)", "reports", 1);
    let (sentence, summary_table) =
        summary::summary(&results.oracle, &results.evaluations, study.alarm_budget);
    let summary = format!("{sentence}\n{}", summary_table.to_markdown());
    let mut tables = vec![summary_table];
    tables.extend(tables::build(
        &results.oracle,
        &results.evaluations,
        study.alarm_budget,
    ));
    tables.extend(results.kind_breakdowns.iter().map(tables::kinds_table));
    tables.extend(results.trace_reach.iter().map(tables::reach_table));
    for sub in ["tables", "matrices"] {
        std::fs::create_dir_all(out.join(sub))
            .with_context(|| format!("cannot create {}", out.join(sub).display()))?;
    }
    for t in &tables {
        write_file(&out.join("tables").join(format!("{}.csv", t.id)), &t.to_csv())?;
    }
    write_file(&out.join("matrices").join("oracle.csv"), &results.oracle.to_csv())?;
    for e in &results.evaluations {
        for p in &e.points {
            let mut csv = format!("test,{}\n", results.oracle.versions.join(","));
            for (t, test) in results.oracle.tests.iter().enumerate() {
                csv.push_str(test);
                for row in &p.pass_draws {
                    csv.push_str(&format!(",{}", row[t]));
                }
                csv.push('\n');
            }
            write_file(
                &out.join("matrices")
                    .join(format!("{}-{}.csv", e.strategy, p.percentage)),
                &csv,
            )?;
        }
    }
    if !results.evaluations.is_empty() {
        plot::curves(&results.evaluations, &out.join("curves.svg"))?;
        plot::per_version(
            &results.oracle,
            &results.evaluations,
            &out.join("per_version.svg"),
        )?;
    }
    let json = JsonReport {
        study: &study.name,
        seed: study.seed,
        draws: study.draws,
        percentages: &study.percentages,
        alarm_budget: study.alarm_budget,
        cache: stats,
        results,
        tables: &tables,
    };
    // Compact: at a whole study's scale the per-test arrays, one number a
    // line when pretty-printed, would weigh several times the rest.
    write_file(&out.join("report.json"), &serde_json::to_string(&json)?)?;
    write_file(
        &out.join("report.md"),
        &markdown(study, results, &sentence, &tables),
    )?;
    progress.step();
    progress.finish();
    Ok(summary)
}

/// The report: what was studied, the summary's sentence, then every table
/// (the summary's first).
fn markdown(study: &Study, results: &Results, sentence: &str, tables: &[Table]) -> String {
    let mut md = format!(
        "# Study {}\n\n{} faulty versions, {} tests ({} for training), seed {}, {} draws per percentage. \
         Range matrices: `matrices/STRATEGY-PCT.csv` (draws predicting pass); oracle: `matrices/oracle.csv`.\n\n",
        study.name,
        study.faulty().len(),
        study.tests.len(),
        study.training.len(),
        study.seed,
        study.draws
    );
    md.push_str(sentence);
    md.push('\n');
    md.push_str(&legend(study));
    for t in tables {
        md.push_str(&t.to_markdown());
        md.push('\n');
    }
    for ((name, changed), (_, training)) in results.instrumentation_changes.iter().zip(&results.training_runs)
    {
        md.push_str(&format!(
            "- {name}: {training} usable training runs; {} runs whose outputs differ from the plain build\n",
            changed.len()
        ));
    }
    md
}

/// What the report's words mean.
fn legend(study: &Study) -> String {
    let k = study.draws.max(2);
    format!(
        "Legend. A run is *failing* when the oracle says the faulty version's output differs from the \
         original's, *passing* otherwise. **Flagged failing runs**: failing runs the detector predicts \
         to fail (it caught them). **Alarms on passing runs**: passing runs of faulty versions it \
         flags (the fault changed the program's state but not its output). **Alarms on the \
         original's unseen runs**: runs of the correct program that the draw did not train on, \
         flagged: what a user of a correct program meets (at 100% training, by {k}-fold: each fold \
         judged by what the other folds learned). A version is **detected** when one of its failing \
         runs is flagged in at least one draw; detectors are ranked by the versions they detect at \
         ≤ {}% alarms on the original's unseen runs. **All-pass accuracy**: the accuracy of \
         answering pass everywhere. Runs are pooled over the {} draws of a percentage. {}\n\n",
        study.alarm_budget,
        study.draws,
        judging_sentence(study.judging)
    )
}

/// How the report's faulty runs were judged (docs/experiment.md, "Which
/// sets judge a run").
fn judging_sentence(judging: Judging) -> &'static str {
    match judging {
        Judging::Unseen => {
            "The faulty versions' runs are judged like the original's, each only by the draws that \
             did not train on its test (at 100%, by the fold that held it out): `judging = \"unseen\"`."
        }
        Judging::Every => {
            "The faulty versions' runs are judged by every draw, at 100% by the set learned from every \
             training run, including the original's run of the same test: `judging = \"every\"`."
        }
    }
}

fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}
