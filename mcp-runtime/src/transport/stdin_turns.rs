//! Stdin read in turns by the runtime and by a thread of its own, whichever serves the traffic
//! of the moment at less cost.
//!
//! Read on the runtime, each message costs a wait on the I/O driver besides its `read`
//! (`epoll_wait`, the runtime parking and waking): about 1 us more than a server that simply
//! blocks in `read`. A thread that blocks in `read` and answers what it reads right there
//! (within the runtime's context, so that a handler can spawn and use the runtime's timers and
//! I/O) pays only the `read` and the `write`. But a request that waits would then go on as a
//! task spawned from that thread: a trip through the runtime's queue and a wake of its thread
//! for every call, which costs more than the wait it saves (BENCHMARKS.md, "The reader thread,
//! measured").
//!
//! So the two take turns. The serving loop reads on the runtime; after
//! [`QUIET_READS`] reads in a row whose requests all finished at once it hands the reading
//! (the framer with any partial line, and the buffer) to the thread. The thread reads and
//! answers until a read starts a task, the output backlog is over its limit, or stdin ends,
//! and hands the reading back. A hand-over and back costs a few microseconds (two wakes, the
//! descriptor's removal from the driver and its return): when the thread's turn was shorter
//! than the run that earned it, the next turn takes a run twice as long (up to
//! [`MOST_QUIET_READS`]), so traffic that mixes the two kinds finely pays for few turns. Only one of them reads at a time, so the session receives its
//! messages in order, one at a time, as before. While the thread reads, stdin is off the
//! runtime's I/O driver, so its data does not wake the runtime's thread as well.
//!
//! The thread reads descriptor 0 (through a duplicate made for each turn: the same open file,
//! read with std's plain `read`), with blocking reads; if that turns out to be non-blocking
//! (set so by the parent), its turn ends at once and it is not used again. When serving ends
//! during its turn, it keeps the line it had begun, and what its `read` then brings, for the
//! next serving in the process (`stdin_leftover.rs`), and ends.

use std::io;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use tokio::sync::Notify;

use super::lines::{Frame, Framer, ReadBuffer};
use super::nonblocking::NonBlocking;
use super::one_read::handle_read;
use super::stdin_leftover::{self, Reader, Serving};
use super::writer::SharedWriter;
use crate::server::Session;

/// How many reads in a row must start no task before the thread takes over, at first and
/// after a turn of the thread at least as long.
pub(crate) const QUIET_READS: u32 = 8;

/// The longest run of such reads a turn waits for.
pub(crate) const MOST_QUIET_READS: u32 = 1024;

/// What reading stdin needs, handed from one reader to the other: the framer, with any
/// partial line, and the buffer the next read fills.
struct Reading {
    framer: Framer,
    chunk: ReadBuffer,
}

/// Why the thread handed the reading back.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum TurnEnded {
    /// A request of its last read goes on as a task: the runtime reads next.
    TaskStarted,
    /// The output backlog is over its limit: the runtime waits for room.
    NoRoom,
    /// Its `read` failed: descriptor 0 is non-blocking (its parent made it so), or an error
    /// (which the runtime's own read then meets), or descriptor 0 could not be duplicated for
    /// it (no descriptor left). The runtime reads from now on.
    Unreadable,
    /// Stdin ended.
    Input,
}

/// Hands one framed message to the session.
pub(crate) type Deliver = Box<dyn FnMut(Frame<'_>) + Send>;

/// Stdin, read by the runtime or by the thread.
pub(crate) struct TakingTurns {
    /// On the runtime's I/O driver; taken off it for the thread's turns.
    on_runtime: Option<NonBlocking>,
    /// Reads in a row that started no task.
    quiet_reads: u32,
    /// How many the next turn of the thread waits for.
    quiet_needed: u32,
    /// Whether the thread reads next.
    thread_due: bool,
    /// Whether the last bytes handed out were the thread's (none), not a read's.
    after_turn: bool,
    thread: Thread,
}

/// The thread: what it needs until it is started, then the way to it.
enum Thread {
    NotStarted {
        deliver: Deliver,
        session: Arc<Session>,
        writer: Arc<SharedWriter>,
        serving: Serving,
    },
    Started(Arc<Handover>),
    /// It could not be started, or cannot read.
    Unusable,
}

impl TakingTurns {
    /// `stdin`, read by the runtime first; the thread, once started, gives `deliver` the
    /// messages it reads, and keeps what it reads once `serving` is over for the next one.
    pub(crate) fn new(
        stdin: NonBlocking,
        deliver: Deliver,
        session: &Arc<Session>,
        writer: &Arc<SharedWriter>,
        serving: Serving,
    ) -> TakingTurns {
        TakingTurns {
            on_runtime: Some(stdin),
            quiet_reads: 0,
            quiet_needed: QUIET_READS,
            thread_due: false,
            after_turn: false,
            thread: Thread::NotStarted {
                deliver,
                session: Arc::clone(session),
                writer: Arc::clone(writer),
                serving,
            },
        }
    }

    /// The next bytes stdin brings, into `chunk`; `None` at its end. Read by the runtime (see
    /// [`NonBlocking::read`]), or, when the thread's turn is due, by the thread, which frames
    /// them with `framer` and hands the messages on itself: then the bytes are none.
    pub(crate) async fn next<'a>(
        &mut self,
        framer: &mut Framer,
        chunk: &'a mut ReadBuffer,
    ) -> io::Result<Option<&'a [u8]>> {
        if self.thread_due {
            self.thread_due = false;
            return match self.thread_turn(framer, chunk).await? {
                TurnEnded::Input => Ok(None),
                TurnEnded::TaskStarted | TurnEnded::NoRoom | TurnEnded::Unreadable => Ok(Some(&[])),
            };
        }
        let stdin = self
            .on_runtime
            .as_mut()
            .expect("stdin is on the runtime between the thread's turns");
        match stdin.read(chunk.space()).await? {
            0 => Ok(None),
            read => Ok(Some(chunk.filled(read))),
        }
    }

    /// After the messages of a read were handled: `started_a_task` tells whether any of them
    /// went on as a task. A run of reads that started none makes the thread's turn due.
    pub(crate) fn handled(&mut self, started_a_task: bool) {
        if started_a_task || self.after_turn {
            self.after_turn = false;
            self.quiet_reads = 0;
            return;
        }
        self.quiet_reads += 1;
        self.thread_due =
            self.quiet_reads >= self.quiet_needed && !matches!(self.thread, Thread::Unusable);
    }

    /// The thread's turn: it reads and answers until it hands the reading back, and says why.
    /// If this future is dropped first (the serving loop stops), the thread handles nothing
    /// more: what it holds and reads after is kept for the next serving (`stdin_leftover`).
    async fn thread_turn(
        &mut self,
        framer: &mut Framer,
        chunk: &mut ReadBuffer,
    ) -> io::Result<TurnEnded> {
        self.quiet_reads = 0;
        self.after_turn = true;
        let Some(handover) = self.start_thread() else {
            return Ok(TurnEnded::Unreadable);
        };
        let stdin = self.on_runtime.take().expect("the runtime was reading");
        let resting = stdin.unregister();
        handover.hand(Reading {
            framer: std::mem::replace(framer, Framer::new(0)),
            chunk: std::mem::replace(chunk, ReadBuffer::empty()),
        });
        let returned = handover.returned().await;
        self.on_runtime = Some(resting.register()?);
        let Returned {
            reading,
            ended,
            reads,
        } = returned?;
        *framer = reading.framer;
        *chunk = reading.chunk;
        if ended == TurnEnded::Unreadable {
            self.retire_thread();
        }
        self.quiet_needed = if reads < self.quiet_needed {
            (self.quiet_needed * 2).min(MOST_QUIET_READS)
        } else {
            QUIET_READS
        };
        Ok(ended)
    }

    /// The thread, started at the first turn.
    fn start_thread(&mut self) -> Option<Arc<Handover>> {
        if let Thread::Started(handover) = &self.thread {
            return Some(Arc::clone(handover));
        }
        let Thread::NotStarted {
            deliver,
            session,
            writer,
            serving,
        } = std::mem::replace(&mut self.thread, Thread::Unusable)
        else {
            return None;
        };
        let handover = Arc::new(Handover::default());
        let on_thread = Arc::clone(&handover);
        let runtime = tokio::runtime::Handle::current();
        let reader = serving.reader();
        crate::named_thread::spawn_with_stack(
            "mcp-stdin",
            // Handlers run on it: as much stack as a main thread has.
            8 * 1024 * 1024,
            Box::new(move || {
                take_turns(&on_thread, deliver, &session, &writer, &runtime, reader);
            }),
        )
        // No thread: the runtime reads on.
        .ok()?;
        self.thread = Thread::Started(Arc::clone(&handover));
        Some(handover)
    }

    /// Ends the thread, if it was started: no more turns.
    fn retire_thread(&mut self) {
        if let Thread::Started(handover) = std::mem::replace(&mut self.thread, Thread::Unusable) {
            handover.lock().over = true;
            handover.to_thread.notify_one();
        }
    }
}

impl Drop for TakingTurns {
    fn drop(&mut self) {
        self.retire_thread();
    }
}

/// Between the serving loop and the thread: the reading, handed one way or the other.
#[derive(Default)]
struct Handover {
    state: Mutex<Handing>,
    /// Wakes the thread: a turn, or the end of serving.
    to_thread: Condvar,
    /// Wakes the serving loop: the reading handed back, or the thread gone.
    back: Notify,
}

/// What the thread hands back: the reading, why, and after how many reads.
struct Returned {
    reading: Reading,
    ended: TurnEnded,
    reads: u32,
}

#[derive(Default)]
struct Handing {
    /// The thread's turn, until it takes it.
    turn: Option<Reading>,
    /// What the thread handed back, until the serving loop takes it.
    returned: Option<Returned>,
    /// Serving is over: the thread ends.
    over: bool,
    /// The thread has ended.
    gone: bool,
}

impl Handover {
    fn lock(&self) -> MutexGuard<'_, Handing> {
        // Nothing that holds it panics.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Gives the thread its turn.
    fn hand(&self, reading: Reading) {
        self.lock().turn = Some(reading);
        self.to_thread.notify_one();
    }

    /// The reading the thread hands back.
    async fn returned(&self) -> io::Result<Returned> {
        loop {
            {
                let mut state = self.lock();
                if let Some(returned) = state.returned.take() {
                    return Ok(returned);
                }
                if state.gone {
                    // Handlers' panics are caught where they are called: only a bug gets here.
                    return Err(io::Error::other(
                        "the thread reading stdin ended in the middle of its turn",
                    ));
                }
            }
            // `notify_one` keeps its wake for a waiter to come: none is lost in between.
            self.back.notified().await;
        }
    }

    /// On the thread: its next turn, once it is handed one; `None` when serving is over.
    fn next_turn(&self) -> Option<Reading> {
        let mut state = self.lock();
        loop {
            if let Some(reading) = state.turn.take() {
                return Some(reading);
            }
            if state.over {
                return None;
            }
            state = self
                .to_thread
                .wait(state)
                .unwrap_or_else(|e| e.into_inner());
        }
    }

    /// On the thread: hands the reading back.
    fn hand_back(&self, returned: Returned) {
        self.lock().returned = Some(returned);
        self.back.notify_one();
    }

    fn is_over(&self) -> bool {
        self.lock().over
    }
}

/// Tells the serving loop that the thread has ended, however it ends.
struct Gone<'a>(&'a Handover);

impl Drop for Gone<'_> {
    fn drop(&mut self) {
        self.0.lock().gone = true;
        self.0.back.notify_one();
    }
}

/// The thread's life: each turn it is handed, until serving is over. `_reader` registers it
/// until it ends, after it has kept what is left for the next serving.
fn take_turns(
    handover: &Handover,
    mut deliver: Deliver,
    session: &Session,
    writer: &Arc<SharedWriter>,
    runtime: &tokio::runtime::Handle,
    _reader: Reader,
) {
    let _gone = Gone(handover);
    // Handlers spawn, and use the runtime's timers and I/O.
    let _entered = runtime.enter();
    while let Some(mut reading) = handover.next_turn() {
        let mut reads = 0;
        let ended = read_until_a_task(
            &mut reading,
            &mut reads,
            &mut deliver,
            session,
            writer,
            handover,
        );
        handover.hand_back(Returned {
            reading,
            ended,
            reads,
        });
    }
    // Handed back as serving ended: the serving loop never took it.
    if let Some(mut returned) = handover.lock().returned.take() {
        stdin_leftover::keep(|kept| kept.unframed(returned.reading.framer.take_unframed()));
    }
}

/// One turn: reads stdin, blocking, and hands each message to the session until a read
/// starts a task, the output backlog is over its limit, or stdin ends; counts the reads.
/// Once serving is over, what it holds and reads is kept for the next serving instead.
fn read_until_a_task(
    reading: &mut Reading,
    reads: &mut u32,
    deliver: &mut dyn FnMut(Frame<'_>),
    session: &Session,
    writer: &Arc<SharedWriter>,
    handover: &Handover,
) -> TurnEnded {
    // A duplicate of descriptor 0 (the same open file), for std's plain `read`.
    let Ok(stdin) = super::sys::stdin().try_clone_to_owned() else {
        return TurnEnded::Unreadable;
    };
    let mut stdin = std::fs::File::from(stdin);
    loop {
        // (Serving may end while messages are handled: then this read takes in the next bytes
        // for the next serving, as one that was waiting already would.)
        if !writer.has_room() {
            return TurnEnded::NoRoom;
        }
        let read = match std::io::Read::read(&mut stdin, reading.chunk.space()) {
            Ok(read) => read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return TurnEnded::Unreadable,
        };
        if handover.is_over() {
            // Serving ended: the line the framer holds, and what this read brought (or the
            // end of stdin), are for the next serving.
            stdin_leftover::keep(|kept| {
                kept.unframed(reading.framer.take_unframed());
                match read {
                    0 => kept.end(),
                    _ => kept.read(reading.chunk.filled(read)),
                }
            });
            return TurnEnded::Input;
        }
        if read == 0 {
            return TurnEnded::Input;
        }
        *reads += 1;
        let data = reading.chunk.filled(read);
        if handle_read(data, &mut reading.framer, deliver, session, writer) {
            return TurnEnded::TaskStarted;
        }
    }
}
