//! The metrics of the report's §4.2.4, comparing a predicted fault matrix
//! with the oracle's. A *positive* is a prediction that the test passes.

use serde::Serialize;

/// Counts of one comparison (or several, pooled).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Confusion {
    /// Predicted pass, oracle pass.
    pub tp: u64,
    /// Predicted pass, oracle fail.
    pub fp: u64,
    /// Predicted fail, oracle fail.
    pub tn: u64,
    /// Predicted fail, oracle pass.
    #[serde(rename = "fn")]
    pub fn_: u64,
}

impl Confusion {
    /// Compares cell by cell; `oracle` and `predicted` have the same length.
    pub fn compare(oracle: &[bool], predicted: &[bool]) -> Confusion {
        let mut c = Confusion::default();
        for (&o, &p) in oracle.iter().zip(predicted) {
            c.count(o, p);
        }
        c
    }

    /// Counts one run: whether the oracle says it passes, and whether it
    /// was predicted to.
    pub fn count(&mut self, oracle: bool, predicted: bool) {
        match (predicted, oracle) {
            (true, true) => self.tp += 1,
            (true, false) => self.fp += 1,
            (false, false) => self.tn += 1,
            (false, true) => self.fn_ += 1,
        }
    }

    pub fn add(&mut self, other: Confusion) {
        self.tp += other.tp;
        self.fp += other.fp;
        self.tn += other.tn;
        self.fn_ += other.fn_;
    }

    /// Number of compared cells.
    pub fn total(&self) -> u64 {
        self.tp + self.fp + self.tn + self.fn_
    }

    /// ACC: share of correct predictions, in percent.
    pub fn accuracy(&self) -> Option<f64> {
        percent(self.tp + self.tn, self.total())
    }

    /// Share of all cells that are false positives, in percent (Figs. 4.2/4.3).
    pub fn false_positive_share(&self) -> Option<f64> {
        percent(self.fp, self.total())
    }

    /// Share of all cells that are false negatives, in percent (Figs. 4.2/4.3).
    pub fn false_negative_share(&self) -> Option<f64> {
        percent(self.fn_, self.total())
    }

    /// PPV = tp / (tp + fp).
    pub fn ppv(&self) -> Option<f64> {
        percent(self.tp, self.tp + self.fp)
    }

    /// NPV = tn / (tn + fn).
    pub fn npv(&self) -> Option<f64> {
        percent(self.tn, self.tn + self.fn_)
    }

    /// TPR = tp / (tp + fn).
    pub fn tpr(&self) -> Option<f64> {
        percent(self.tp, self.tp + self.fn_)
    }

    /// TNR = tn / (fp + tn).
    pub fn tnr(&self) -> Option<f64> {
        percent(self.tn, self.fp + self.tn)
    }
}

/// `num / den` in percent; `None` when the ratio is undefined (0/0).
pub fn percent(num: u64, den: u64) -> Option<f64> {
    (den != 0).then(|| 100.0 * num as f64 / den as f64)
}

/// The report's "percentage of 1s": the accuracy of predicting that every
/// test passes, i.e. the share of passing cells in the oracle matrix.
pub fn percentage_of_ones(cells: &[bool]) -> Option<f64> {
    percent(cells.iter().filter(|&&c| c).count() as u64, cells.len() as u64)
}

/// Formats a percentage with two decimals, or "-" when undefined.
pub fn fmt_percent(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.2}"))
}

/// The best accuracy over training percentages and the percentage reaching
/// it; ties go to the smallest percentage (§4.2). `points` holds
/// `(percentage, accuracy)`; undefined accuracies never win.
pub fn best_percentage(points: &[(u32, Option<f64>)]) -> Option<(f64, u32)> {
    let mut best: Option<(f64, u32)> = None;
    for &(pct, acc) in points {
        let Some(acc) = acc else { continue };
        best = match best {
            Some((b, bp)) if b > acc || (b == acc && bp <= pct) => Some((b, bp)),
            _ => Some((acc, pct)),
        };
    }
    best
}
