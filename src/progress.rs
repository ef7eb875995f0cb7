//! A progress bar with ETA on stderr, drawn only when stderr is a terminal (indicatif hides
//! itself otherwise).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Progress over `done / total` work items.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar on stderr labelled `label`.
    pub fn stderr(label: &'static str) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {percent}% ETA {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("#>-"),
        );
        bar.set_prefix(label);
        Progress { bar }
    }

    /// Reports `done` of `total` items.
    pub fn update(&self, done: usize, total: usize) {
        self.bar.set_length(total as u64);
        self.bar.set_position(done as u64);
    }

    /// Clears the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
