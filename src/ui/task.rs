//! Background tasks for the UI: anything that touches the disk, SQLite or an algorithm runs on a
//! thread; the UI polls the result each frame and is woken by `request_repaint` when it lands.

use crossbeam_channel::{Receiver, TryRecvError, bounded};

/// A one-shot background computation.
pub struct Task<T> {
    rx: Receiver<T>,
}

impl<T: Send + 'static> Task<T> {
    /// Run `f` on a new thread; `ctx` is woken when it is done.
    pub fn spawn(ctx: &egui::Context, f: impl FnOnce() -> T + Send + 'static) -> Self {
        let (tx, rx) = bounded(1);
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
        Task { rx }
    }

    /// `Some(Ok(v))` once done; `Some(Err(..))` if the thread died; `None` while running.
    pub fn poll(&self) -> Option<Result<T, String>> {
        match self.rx.try_recv() {
            Ok(v) => Some(Ok(v)),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err("background task failed".into())),
        }
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
        if let Some(task) = &self.task
            && let Some(r) = task.poll()
        {
            self.task = None;
            self.loaded_at = Some(std::time::Instant::now());
            match r.and_then(|x| x) {
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
