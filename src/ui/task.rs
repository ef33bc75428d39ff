//! Background tasks for the UI: anything that touches the disk, SQLite or an algorithm runs on a
//! thread; the UI polls the result each frame and is woken by `request_repaint` when it lands.
//! A panel keeps a task in an `Option` and takes its outcome with one call, which also empties
//! the slot:
//!
//! ```ignore
//! if let Some(r) = Task::take_result(&mut self.loading) {
//!     match r { Ok(v) => self.value = Some(v), Err(e) => self.error = Some(e) }
//! }
//! ```

use crossbeam_channel::{Receiver, TryRecvError, bounded};

use crate::ui::Lang;

/// A one-shot background computation.
pub struct Task<T> {
    rx: Receiver<T>,
    /// The UI's language when the task started: a task whose thread died says so in it.
    lang: Lang,
}

/// Where the app keeps its language in the egui context (set each frame by [`set_lang`]), so a
/// task can say its own failure without every caller passing the language.
fn lang_id() -> egui::Id {
    egui::Id::NULL.with("tianwang.lang")
}

/// The UI's language, for the tasks started from now on.
pub(crate) fn set_lang(ctx: &egui::Context, lang: Lang) {
    // Called every frame: written only when it changes.
    if ctx.data(|d| d.get_temp::<Lang>(lang_id())) != Some(lang) {
        ctx.data_mut(|d| d.insert_temp(lang_id(), lang));
    }
}

impl<T: Send + 'static> Task<T> {
    /// Run `f` on a new thread; `ctx` is woken when it is done.
    pub fn spawn(ctx: &egui::Context, f: impl FnOnce() -> T + Send + 'static) -> Self {
        let (tx, rx) = bounded(1);
        let lang = ctx.data(|d| d.get_temp(lang_id())).unwrap_or_default();
        let ctx = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("ui-task".into())
            .spawn(move || {
                let _ = tx.send(f());
                ctx.request_repaint();
            });
        if let Err(e) = spawned {
            tracing::error!("could not start a background thread: {e}");
        }
        Task { rx, lang }
    }

    /// `Some(Ok(v))` once done; `Some(Err(..))` if the thread died; `None` while running.
    /// Panels take results with [`Task::take_finished`] and its kin, which empty the slot.
    fn poll(&self) -> Option<Result<T, String>> {
        match self.rx.try_recv() {
            Ok(v) => Some(Ok(v)),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(self.lang.t("task.died").into())),
        }
    }
}

impl<T: Send + 'static> Task<T> {
    /// The outcome of the task in `slot` once it has finished, emptying the slot: `Ok(v)`, or
    /// `Err(..)` if its thread died. `None` while it runs, or when the slot is empty.
    ///
    /// ```ignore
    /// if let Some(r) = Task::take_finished(&mut self.loading) { /* … */ }
    /// ```
    pub fn take_finished(slot: &mut Option<Task<T>>) -> Option<Result<T, String>> {
        let r = slot.as_ref()?.poll()?;
        *slot = None;
        Some(r)
    }

    /// [`Task::take_finished`] for a task kept with what it was started for (`K`).
    pub fn take_keyed<K>(slot: &mut Option<(K, Task<T>)>) -> Option<(K, Result<T, String>)> {
        let r = slot.as_ref()?.1.poll()?;
        let (key, _) = slot.take()?;
        Some((key, r))
    }

    /// The outcomes of the finished tasks of a queue, each with its key; the running ones stay.
    pub fn drain_keyed<K>(tasks: &mut Vec<(K, Task<T>)>) -> Vec<(K, Result<T, String>)> {
        let mut done = Vec::new();
        for (key, task) in std::mem::take(tasks) {
            match task.poll() {
                Some(r) => done.push((key, r)),
                None => tasks.push((key, task)),
            }
        }
        done
    }
}

impl<T: Send + 'static> Task<Result<T, String>> {
    /// [`Task::take_finished`] for work that can fail: its own error and a thread that died are
    /// both `Err`.
    pub fn take_result(slot: &mut Option<Self>) -> Option<Result<T, String>> {
        Task::take_finished(slot).map(|r| r.and_then(|x| x))
    }
}

/// Reads that go first: while one is held, reads that can wait ([`Gate::wait_clear`]) pause
/// between their queries. The Pages list holds it while it loads, so the Overview's pipeline
/// counts, started at the same moment on a fresh start, do not share the two cores with it.
#[derive(Clone, Default)]
pub(crate) struct Gate(std::sync::Arc<(std::sync::Mutex<usize>, std::sync::Condvar)>);

/// A held [`Gate`]; released when dropped (also when the read fails or panics).
pub(crate) struct Held(Gate);

impl Gate {
    /// Hold the gate until the returned guard drops.
    pub fn hold(&self) -> Held {
        let (n, _) = &*self.0;
        *n.lock().unwrap_or_else(|p| p.into_inner()) += 1;
        Held(self.clone())
    }

    /// Wait (off the UI thread) until nobody holds the gate, at most `most`: a read that can
    /// wait never waits for ever.
    pub fn wait_clear(&self, most: std::time::Duration) {
        let (n, cv) = &*self.0;
        let g = n.lock().unwrap_or_else(|p| p.into_inner());
        let _ = cv.wait_timeout_while(g, most, |n| *n > 0);
    }

    /// How many hold it now.
    #[cfg(test)]
    pub fn held(&self) -> usize {
        *self.0.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let (n, cv) = &*self.0.0;
        let mut g = n.lock().unwrap_or_else(|p| p.into_inner());
        *g = g.saturating_sub(1);
        cv.notify_all();
    }
}

/// A value loaded in the background and refreshed on demand.
pub struct Loaded<T> {
    pub value: Option<T>,
    pub error: Option<String>,
    task: Option<Task<Result<T, String>>>,
    loaded_at: Option<std::time::Instant>,
    stale: bool,
    generation: u64,
}

impl<T> Default for Loaded<T> {
    fn default() -> Self {
        Loaded {
            value: None,
            error: None,
            task: None,
            loaded_at: None,
            stale: true,
            generation: 0,
        }
    }
}

impl<T: Send + 'static> Loaded<T> {
    /// Ask for a reload at the next opportunity.
    pub fn invalidate(&mut self) {
        self.stale = true;
    }

    pub fn is_loading(&self) -> bool {
        self.task.is_some()
    }

    /// Grows by one each time a new value lands: views derived from the value recompute only
    /// when it changes.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn age(&self) -> Option<std::time::Duration> {
        self.loaded_at.map(|t| t.elapsed())
    }

    /// Poll a running load; start `load` when stale and none is running.
    pub fn update(
        &mut self,
        ctx: &egui::Context,
        load: impl FnOnce() -> Result<T, String> + Send + 'static,
    ) {
        if let Some(r) = Task::take_result(&mut self.task) {
            self.loaded_at = Some(std::time::Instant::now());
            match r {
                Ok(v) => {
                    self.value = Some(v);
                    self.error = None;
                    self.generation += 1;
                }
                Err(e) => self.error = Some(e),
            }
        }
        if self.stale && self.task.is_none() {
            self.stale = false;
            self.task = Some(Task::spawn(ctx, load));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Steps "frames" until the slot yields, for at most 5 s.
    fn until<R>(mut f: impl FnMut() -> Option<R>) -> R {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        loop {
            if let Some(r) = f() {
                return r;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the task never finished"
            );
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    #[test]
    fn take_finished_yields_once_and_empties_the_slot() {
        let ctx = egui::Context::default();
        let (go, wait) = crossbeam_channel::bounded::<()>(1);
        let mut slot = Some(Task::spawn(&ctx, move || {
            let _ = wait.recv();
            41 + 1
        }));
        assert!(Task::take_finished(&mut slot).is_none(), "still running");
        assert!(slot.is_some(), "a running task stays in its slot");
        go.send(()).unwrap();
        assert_eq!(until(|| Task::take_finished(&mut slot)), Ok(42));
        assert!(slot.is_none());
        assert!(
            Task::take_finished(&mut slot).is_none(),
            "an empty slot yields nothing"
        );
    }

    #[test]
    fn take_result_flattens_errors_and_a_dead_thread() {
        let ctx = egui::Context::default();
        let mut ok: Option<Task<Result<u8, String>>> = Some(Task::spawn(&ctx, || Ok(7)));
        assert_eq!(until(|| Task::take_result(&mut ok)), Ok(7));
        let mut err: Option<Task<Result<u8, String>>> =
            Some(Task::spawn(&ctx, || Err("bad input".into())));
        assert_eq!(
            until(|| Task::take_result(&mut err)),
            Err("bad input".into())
        );
        // A dead thread is said in the language the app had when the task started.
        for (lang, said) in [
            (Lang::Zh, "后台工作意外中止"),
            (Lang::En, "stopped without"),
        ] {
            set_lang(&ctx, lang);
            let mut died: Option<Task<Result<u8, String>>> =
                Some(Task::spawn(&ctx, || panic!("the work panicked")));
            let e = until(|| Task::take_result(&mut died)).unwrap_err();
            assert!(e.contains(said), "{e}");
            assert!(died.is_none());
        }
    }

    #[test]
    fn drain_keyed_takes_the_finished_and_keeps_the_running() {
        let ctx = egui::Context::default();
        let (go, wait) = crossbeam_channel::bounded::<()>(1);
        let mut queue = vec![
            (
                "slow",
                Task::spawn(&ctx, move || wait.recv().map(|_| 1).unwrap_or(0)),
            ),
            ("fast", Task::spawn(&ctx, || 2)),
        ];
        let done = until(|| Some(Task::drain_keyed(&mut queue)).filter(|d| !d.is_empty()));
        assert_eq!(done, vec![("fast", Ok(2))]);
        assert_eq!(queue.len(), 1, "the running task stays queued");
        go.send(()).unwrap();
        let done = until(|| Some(Task::drain_keyed(&mut queue)).filter(|d| !d.is_empty()));
        assert_eq!(done, vec![("slow", Ok(1))]);
        assert!(queue.is_empty());
    }

    #[test]
    fn a_held_gate_holds_waiters_until_released() {
        let gate = Gate::default();
        let held = gate.hold();
        assert_eq!(gate.held(), 1);
        let (tx, rx) = crossbeam_channel::bounded::<()>(1);
        let g = gate.clone();
        std::thread::spawn(move || {
            g.wait_clear(std::time::Duration::from_secs(30));
            let _ = tx.send(());
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(
            rx.try_recv().is_err(),
            "the waiter waits while the gate is held"
        );
        drop(held);
        assert!(rx.recv_timeout(std::time::Duration::from_secs(5)).is_ok());
        assert_eq!(gate.held(), 0);
        // Free: no wait; held for ever: the wait ends at its bound.
        gate.wait_clear(std::time::Duration::from_secs(30));
        let _stuck = gate.hold();
        let t = std::time::Instant::now();
        gate.wait_clear(std::time::Duration::from_millis(30));
        assert!(t.elapsed() >= std::time::Duration::from_millis(30));
    }

    #[test]
    fn take_keyed_gives_back_what_the_task_was_for() {
        let ctx = egui::Context::default();
        let mut slot = Some(("page 3", Task::spawn(&ctx, || 3 * 3)));
        assert_eq!(until(|| Task::take_keyed(&mut slot)), ("page 3", Ok(9)));
        assert!(slot.is_none());
    }
}
