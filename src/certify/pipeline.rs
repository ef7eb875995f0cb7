//! One certified run, for every proof format: the search (on the caller's thread) hands its
//! proof in batches through a bounded channel to a checker thread, which checks each batch as
//! it comes; when a proof file is asked for, a third thread writes the checked batches' text
//! into a temporary file beside it ([`crate::atomic_file::Pending`]), renamed to the file only once
//! the whole proof checked (never a half-written proof under the name asked for). Batches the
//! checker (or the text thread) is done with go back to the search for reuse. The search and
//! the check overlap on two cores.
//!
//! A format is a [`Route`]: its batch type, its checker, and its text: [`LratRoute`] here,
//! `PbRoute` beside the VeriPB batches ([`super::pb`]). The bitboard search's two certified
//! routes ([`crate::solve::bitboard::proof`], [`crate::solve::bitboard::pbproof`]) and the
//! LRAT proofs of presolve's refutations (`solve --certify --proof F`) run here.

use std::io::BufWriter;
use std::path::Path;
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::time::Instant;

use super::lrat::{Lrat, Steps};
use crate::atomic_file::Pending;
use crate::error::{BadOption, Error, Opt, Result};

/// A proof format's part in a certified run.
pub(crate) trait Route {
    /// A run of proof steps, as the search writes them.
    type Batch: Send;
    /// The checker's state, built on its thread and returned at the end.
    type Checker: Send;
    /// The proof's text writer over the pending file.
    type Text: Send;

    /// Checks `batch`, the next run of steps.
    fn check(checker: &mut Self::Checker, batch: &Self::Batch) -> Result<()>;

    /// The text writer over `file`.
    fn text(file: BufWriter<Pending>) -> Self::Text;

    /// Writes `batch` as text (errors name the file `name`).
    fn write(text: &mut Self::Text, batch: &Self::Batch, name: &str) -> Result<()>;

    /// The text writer's file, flushed.
    fn finish(text: Self::Text) -> IntoInner;

    /// Empties `batch` for reuse (`None`: the search makes new ones).
    fn recycle(batch: Self::Batch) -> Option<Self::Batch>;
}

/// A text writer's file, flushed, or the flush's error.
pub(crate) type IntoInner =
    std::result::Result<Pending, std::io::IntoInnerError<BufWriter<Pending>>>;

/// The search's end of the pipeline.
pub(crate) struct Outlet<B> {
    tx: SyncSender<B>,
    back: Receiver<B>,
}

/// The checker stopped (on an error, which the run reports).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Closed;

impl<B> Outlet<B> {
    /// Hands `batch` to the checker; [`Closed`] when the checker stopped.
    pub(crate) fn send(&self, batch: B) -> std::result::Result<(), Closed> {
        self.tx.send(batch).map_err(|_| Closed)
    }

    /// A batch the checker is done with, emptied, when one is back.
    pub(crate) fn reuse(&self) -> Option<B> {
        self.back.try_recv().ok()
    }
}

/// What the checker thread of [`run`] established.
pub(crate) struct Checked<C> {
    /// The checker, after the last batch.
    pub checker: C,
    /// Seconds the thread spent building the checker and checking.
    pub busy: f64,
    /// The proof file, complete and checked batch by batch, to [`Pending::keep`] once the
    /// caller accepts the proof's conclusion.
    pub file: Option<Pending>,
}

/// A certified run: `search` writes its proof into the [`Outlet`] it is given (dropping it at
/// the end), a checker thread builds its checker with `checker` and checks every batch, and,
/// with `proof`, a text thread writes the checked batches to a temporary file for it, under
/// its size budget (`budget`, else the default of [`super::budget`]: past it the text thread
/// fails, the checker and the search stop, and the temporary file is removed). Returns
/// what the search returned and what the checker established; the text thread's error comes
/// first, then the checker's (a search that stopped early may only show the closed channel).
pub(crate) fn run<R: Route, S>(
    proof: Option<&Path>,
    budget: Option<u64>,
    checker: impl FnOnce() -> Result<R::Checker> + Send,
    search: impl FnOnce(Outlet<R::Batch>) -> S,
) -> Result<(S, Checked<R::Checker>)> {
    let file = match proof {
        Some(path) => Some(beside(path)?.with_budget(
            super::budget::resolve(path, budget)?,
            "the proof",
            super::budget::HINT,
        )),
        None => None,
    };
    let name = proof.map(|p| p.display().to_string()).unwrap_or_default();
    let (tx, rx) = sync_channel::<R::Batch>(4);
    let (back_tx, back) = channel::<R::Batch>();
    let (searched, checked, written) = std::thread::scope(|scope| {
        let name = &name;
        let (text_tx, writer) = match file {
            Some(file) => {
                let (tx, rx) = sync_channel::<R::Batch>(4);
                let back = back_tx.clone();
                let writer = scope.spawn(move || write::<R>(rx, back, file, name));
                (Some(tx), Some(writer))
            }
            None => (None, None),
        };
        let checking = scope.spawn(move || check::<R>(checker, rx, back_tx, text_tx));
        // The outlet is dropped when the search returns: the checker sees the end.
        let searched = search(Outlet { tx, back });
        let checked = checking
            .join()
            .unwrap_or_else(|_| Err(Error::Internal("the proof checker panicked".into())));
        let written = writer.map(|w| {
            w.join()
                .unwrap_or_else(|_| Err(Error::Internal("the proof's text writer panicked".into())))
        });
        (searched, checked, written)
    });
    let file = written.transpose()?;
    let mut checked = checked?;
    checked.file = file;
    Ok((searched, checked))
}

/// The checker thread: builds the checker, checks the batches as they come, then hands each to
/// the text thread (`text`), or back to the search.
fn check<R: Route>(
    checker: impl FnOnce() -> Result<R::Checker>,
    rx: Receiver<R::Batch>,
    back: Sender<R::Batch>,
    text: Option<SyncSender<R::Batch>>,
) -> Result<Checked<R::Checker>> {
    let t0 = Instant::now();
    let mut checker = checker()?;
    let mut busy = t0.elapsed().as_secs_f64();
    for batch in rx {
        let t = Instant::now();
        R::check(&mut checker, &batch)?;
        busy += t.elapsed().as_secs_f64();
        match &text {
            Some(tx) => tx
                .send(batch)
                .map_err(|_| Error::Internal("the proof's text writer stopped".into()))?,
            None => give_back::<R>(&back, batch),
        }
    }
    Ok(Checked {
        checker,
        busy,
        file: None,
    })
}

/// The text thread: writes the batches into `file`, then hands them back; the file, complete.
fn write<R: Route>(
    rx: Receiver<R::Batch>,
    back: Sender<R::Batch>,
    file: Pending,
    name: &str,
) -> Result<Pending> {
    let mut text = R::text(BufWriter::with_capacity(1 << 20, file));
    for batch in rx {
        R::write(&mut text, &batch, name)?;
        give_back::<R>(&back, batch);
    }
    R::finish(text).map_err(|e| Error::io(name, e.into_error()))
}

/// Hands `batch`, emptied, back to the search (which may be done: then nobody takes it).
fn give_back<R: Route>(back: &Sender<R::Batch>, batch: R::Batch) {
    if let Some(batch) = R::recycle(batch) {
        let _ = back.send(batch);
    }
}

/// The LRAT proof in a certified run ([`run`]): runs of [`Steps`], checked by
/// [`Lrat`], written as text LRAT.
pub(crate) struct LratRoute;

impl Route for LratRoute {
    type Batch = Steps;
    type Checker = Lrat;
    type Text = BufWriter<Pending>;

    fn check(lrat: &mut Lrat, run: &Steps) -> Result<()> {
        Ok(lrat.check(run)?)
    }

    fn text(file: BufWriter<Pending>) -> BufWriter<Pending> {
        file
    }

    fn write(text: &mut BufWriter<Pending>, run: &Steps, name: &str) -> Result<()> {
        run.write_text(text).map_err(|e| Error::io(name, e))
    }

    fn finish(text: BufWriter<Pending>) -> IntoInner {
        text.into_inner()
    }

    fn recycle(_: Steps) -> Option<Steps> {
        // The search starts each run where the last ended ([`Steps::starting_after`]).
        None
    }
}

/// The file a certified run's proof is written into, renamed to `proof` only once the proof
/// checked ([`Pending::keep`]). A folder that does not exist is a bad `--proof`.
pub(crate) fn beside(proof: &Path) -> Result<Pending> {
    let dir = match proof.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(BadOption::invalid(
            Opt::Proof,
            proof.display(),
            "is in a folder that does not exist",
        ));
    }
    Pending::new(proof)
}
