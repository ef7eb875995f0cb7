//! A progress bar with ETA on stderr, drawn only when stderr is a terminal (indicatif hides
//! itself otherwise).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Progress over `done / total` work items.
pub struct Progress {
    bar: ProgressBar,
    /// Whether the bar draws yet: not before the first report with a known total, so that no
    /// `0/0 100%` flashes before the work starts.
    shown: std::sync::atomic::AtomicBool,
}

impl Progress {
    /// A bar on stderr labelled `label`, drawn from the first [`Progress::update`] on.
    pub fn stderr(label: &'static str) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {percent}% ETA {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("#>-"),
        );
        bar.set_prefix(label);
        Progress {
            bar,
            shown: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Reports `done` of `total` items; a report with `total = 0` (nothing known yet) draws
    /// nothing.
    pub fn update(&self, done: usize, total: usize) {
        if total == 0 {
            return;
        }
        self.bar.set_length(total as u64);
        self.bar.set_position(done as u64);
        if !self.shown.swap(true, std::sync::atomic::Ordering::Relaxed) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
