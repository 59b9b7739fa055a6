//! Writing messages from whichever task has one ready, without a writer thread.
//!
//! A message is appended to a shared buffer. The first message of a batch also schedules a
//! flush: a small task that yields once (so a worker busy with other requests finishes them
//! first, and their replies join the batch) and then writes the whole buffer with one `write`.
//! A burst that fills [`WRITE_NOW`] bytes before the flush has run is written by the sender at
//! once. Outside a Tokio runtime (a notification sent from a plain thread) the sender writes.
//!
//! The serving loop [holds](SharedWriter::hold) the writer while it handles what one read
//! brought: what it sends meanwhile on its own thread (the replies its requests produce at
//! once, above all) gathers in the buffer and leaves in one `write` when the hold ends, on the
//! same thread, with no task scheduled. Messages from other threads go on as usual, so a
//! handler that keeps the loop busy delays no one else's. A non-blocking output that is full never blocks anyone: the rest waits
//! for room on a task of its own.
//!
//! What waits to be written is bounded by backpressure: above the backlog limit
//! ([`ServerBuilder::max_output_backlog`](crate::ServerBuilder::max_output_backlog)) the
//! serving loop waits for [`room`](SharedWriter::room) before it reads stdin again, so a client
//! that stops reading the server's output is not read either. Past the limit, the backlog grows
//! only by what the requests already in flight send, and past twice the limit notifications
//! (progress, logs, list changes) are dropped ([`send_droppable`](SharedWriter::send_droppable)).

use std::io::{self, Write};
use std::mem;
use std::sync::{Arc, Mutex, MutexGuard};

#[cfg(unix)]
use super::nonblocking::NonBlocking;
use crate::handler::BoxFuture;

/// How many times the backlog limit what waits may reach before a message that may be dropped
/// (a notification) is: past the limit the loop stops reading, but handlers and the server's
/// own changes go on sending to a client that has stopped reading.
const DROP_AT_LIMITS: usize = 2;

/// Above this many pending bytes a sender writes at once instead of waiting for the flush.
const WRITE_NOW: usize = 256 * 1024;
/// Above this, a buffer's capacity is not kept once written (a burst should not pin memory).
const KEEP_CAPACITY: usize = 1024 * 1024;

/// Where the bytes go.
enum Output {
    Blocking(Mutex<Box<dyn Write + Send>>),
    /// With the runtime whose I/O driver it is registered with.
    #[cfg(unix)]
    NonBlocking(NonBlocking, tokio::runtime::Handle),
}

impl Output {
    /// Writes `bytes`, or as much as fits now for a non-blocking output; how much was written.
    fn write_now(&self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            Output::Blocking(output) => {
                let mut output = output.lock().unwrap_or_else(|e| e.into_inner());
                output.write_all(bytes).and_then(|()| output.flush())?;
                Ok(bytes.len())
            }
            #[cfg(unix)]
            Output::NonBlocking(output, _) => {
                let mut written = 0;
                while written < bytes.len() {
                    match output.try_write(&bytes[written..]) {
                        Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                        Ok(count) => written += count,
                        Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                        Err(error) if error.kind() == io::ErrorKind::WouldBlock => break,
                        Err(error) => return Err(error),
                    }
                }
                Ok(written)
            }
        }
    }
}

pub(crate) struct SharedWriter {
    queue: Mutex<Queue>,
    /// Signalled whenever `writing` or `scheduled` is cleared, if anyone waits
    /// ([`Queue::idle_waiters`]).
    idle: tokio::sync::Notify,
    /// Signalled when a write fails (`failed` is set): apart from `idle`, so that what waits
    /// for the output's end is not woken by every write.
    gone: tokio::sync::Notify,
    output: Output,
    /// The backlog above which [`room`](Self::room) waits.
    max_backlog: usize,
}

#[derive(Default)]
struct Queue {
    /// Messages waiting to be written, each followed by a newline.
    pending: Vec<u8>,
    /// Bytes taken from `pending` by a write that has not finished.
    in_flight: usize,
    /// A written buffer kept for its capacity, when messages came while it was written (else
    /// it becomes `pending` again).
    spare: Vec<u8>,
    /// Whether someone is writing (and will write `pending` before it stops).
    writing: bool,
    /// Whether a flush task is on its way (and will write `pending` unless someone else does).
    scheduled: bool,
    /// The thread of the serving loop while it holds the writer (it will write `pending`
    /// when it lets go, so what it sends itself need not be scheduled).
    holder: Option<std::thread::ThreadId>,
    /// The first write error; once set, messages are dropped.
    failed: Option<io::Error>,
    /// How many wait for `idle` (for room, or to finish): counted under this lock, so that
    /// whoever clears `writing` or `scheduled` signals it only when someone does.
    idle_waiters: usize,
}

impl SharedWriter {
    /// A writer on a blocking output.
    pub(crate) fn new(
        output: impl Write + Send + 'static,
        max_backlog: usize,
    ) -> Arc<SharedWriter> {
        Self::with_output(Output::Blocking(Mutex::new(Box::new(output))), max_backlog)
    }

    /// A writer on a non-blocking output, opened within the current runtime.
    #[cfg(unix)]
    pub(crate) fn non_blocking(output: NonBlocking, max_backlog: usize) -> Arc<SharedWriter> {
        let runtime = tokio::runtime::Handle::current();
        Self::with_output(Output::NonBlocking(output, runtime), max_backlog)
    }

    fn with_output(output: Output, max_backlog: usize) -> Arc<SharedWriter> {
        Arc::new(SharedWriter {
            max_backlog,
            queue: Mutex::new(Queue::default()),
            idle: tokio::sync::Notify::new(),
            gone: tokio::sync::Notify::new(),
            output,
        })
    }

    /// Queues one message (a newline is added) to be written soon.
    pub(crate) fn send(self: &Arc<Self>, message: &[u8]) {
        self.send_written(&mut |pending| pending.extend_from_slice(message));
    }

    /// [`send`](Self::send) of a message that may be dropped (a notification): dropped, and
    /// `false` returned, when what waits to be written is past twice the backlog limit, so
    /// that a client that stops reading makes the server hold no more than that (replies and
    /// requests, which may not be dropped, still join it).
    pub(crate) fn send_droppable(self: &Arc<Self>, message: &[u8]) -> bool {
        {
            let queue = self.lock_queue();
            let waiting = queue.pending.len() + queue.in_flight;
            if waiting > self.max_backlog.saturating_mul(DROP_AT_LIMITS) {
                return false;
            }
        }
        self.send(message);
        true
    }

    /// [`send`](Self::send) of the message `write` appends to the buffer (under its lock, so
    /// it only writes what it has ready).
    pub(crate) fn send_written(self: &Arc<Self>, write: &mut dyn FnMut(&mut Vec<u8>)) {
        let mut queue = self.lock_queue();
        if queue.failed.is_some() {
            return;
        }
        write(&mut queue.pending);
        queue.pending.push(b'\n');
        if queue.writing
            || queue
                .holder
                .is_some_and(|h| h == std::thread::current().id())
        {
            return;
        }
        if queue.scheduled && queue.pending.len() < WRITE_NOW {
            return;
        }
        if !queue.scheduled
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            queue.scheduled = true;
            drop(queue);
            let writer = Arc::clone(self);
            // Boxed as the crate's other tasks are (see `request_task` in `server/session.rs`).
            let flushing: BoxFuture<()> = Box::pin(async move {
                tokio::task::yield_now().await;
                writer.flush();
            });
            drop(runtime.spawn(flushing));
            return;
        }
        queue.writing = true;
        self.drain(queue);
    }

    /// Until the returned hold is dropped, the messages this thread sends wait in the buffer;
    /// then what is pending is written at once, on this thread. For the serving loop, around
    /// what one read brought.
    pub(crate) fn hold(self: &Arc<Self>) -> Hold {
        self.lock_queue().holder = Some(std::thread::current().id());
        Hold(Arc::clone(self))
    }

    fn release(self: &Arc<Self>) {
        let mut queue = self.lock_queue();
        queue.holder = None;
        if queue.writing || queue.pending.is_empty() || queue.failed.is_some() {
            return;
        }
        queue.writing = true;
        self.drain(queue);
    }

    /// The scheduled flush: writes what is pending unless another thread already is.
    fn flush(self: &Arc<Self>) {
        let mut queue = self.lock_queue();
        queue.scheduled = false;
        if queue.writing || queue.pending.is_empty() {
            self.signal_idle(queue);
            return;
        }
        queue.writing = true;
        self.drain(queue);
    }

    /// Writes until nothing is pending, or hands the rest to a task when a non-blocking output
    /// is full. Called by whoever set `writing`.
    fn drain<'a>(self: &'a Arc<Self>, mut queue: MutexGuard<'a, Queue>) {
        loop {
            let spare = mem::take(&mut queue.spare);
            let chunk = mem::replace(&mut queue.pending, spare);
            queue.in_flight = chunk.len();
            drop(queue);
            let written = self.output.write_now(&chunk);
            queue = self.lock_queue();
            #[cfg(unix)]
            if self.settle(&mut queue, chunk, written)
                && let Output::NonBlocking(_, runtime) = &self.output
            {
                drop(queue);
                let draining: BoxFuture<()> = Box::pin(Arc::clone(self).drain_when_writable());
                drop(runtime.spawn(draining));
                return;
            }
            #[cfg(not(unix))]
            self.settle(&mut queue, chunk, written);
            if queue.pending.is_empty() {
                queue.writing = false;
                self.signal_idle(queue);
                return;
            }
        }
    }

    /// Takes stock after a write of `chunk`: keeps the buffer, records an error, or puts back
    /// what was not written. True if something was left (the output is full).
    fn settle(&self, queue: &mut Queue, mut chunk: Vec<u8>, written: io::Result<usize>) -> bool {
        queue.in_flight = 0;
        match written {
            Err(error) => {
                queue.failed = Some(error);
                self.gone.notify_waiters();
                queue.pending = Vec::new();
                false
            }
            Ok(count) if count < chunk.len() => {
                chunk.drain(..count);
                chunk.extend_from_slice(&queue.pending);
                queue.pending = chunk;
                true
            }
            Ok(_) => {
                chunk.clear();
                if chunk.capacity() > KEEP_CAPACITY {
                    // Dropped: a burst should not pin memory.
                } else if queue.pending.is_empty() && queue.pending.capacity() <= chunk.capacity() {
                    // Nothing was sent during the write: the written buffer takes the next
                    // messages itself, so a writer nobody sends to while it writes (the stdio
                    // loop's own replies) holds one buffer, not two.
                    queue.pending = chunk;
                } else if queue.spare.capacity() < chunk.capacity() {
                    queue.spare = chunk;
                }
                false
            }
        }
    }

    /// Writes what is pending as the output makes room, until nothing is.
    #[cfg(unix)]
    async fn drain_when_writable(self: Arc<Self>) {
        let Output::NonBlocking(output, _) = &self.output else {
            unreachable!("only a non-blocking output is ever full");
        };
        loop {
            let chunk = {
                let mut queue = self.lock_queue();
                queue.in_flight = queue.pending.len();
                mem::take(&mut queue.pending)
            };
            let written = output.write(&chunk).await;
            let mut queue = self.lock_queue();
            self.settle(&mut queue, chunk, written);
            let done = queue.pending.is_empty() || queue.failed.is_some();
            queue.writing = !done;
            // Also wakes the serving loop waiting for room.
            self.signal_idle(queue);
            if done {
                return;
            }
        }
    }

    /// Completes when the backlog (what waits to be written) is within the limit, or the
    /// output has failed.
    pub(crate) async fn room(&self) {
        // Looked at first without waiting: the serving loop asks before every read, and there
        // is room almost always.
        if self.has_room() {
            return;
        }
        let _waiting = self.wait_idle();
        loop {
            let progress = self.idle.notified();
            if self.has_room() {
                return;
            }
            progress.await;
        }
    }

    /// Whether the backlog is within the limit (or the output has failed).
    pub(crate) fn has_room(&self) -> bool {
        let queue = self.lock_queue();
        queue.pending.len() + queue.in_flight <= self.max_backlog || queue.failed.is_some()
    }

    /// Completes once the output is known to be gone: a write failed, or the client closed its
    /// end of a non-blocking output.
    pub(crate) async fn closed(&self) {
        #[cfg(unix)]
        if let Output::NonBlocking(output, _) = &self.output {
            tokio::select! {
                () = output.errored() => {}
                () = self.write_failed() => {}
            }
            return;
        }
        self.write_failed().await;
    }

    async fn write_failed(&self) {
        let gone = self.gone.notified();
        if self.lock_queue().failed.is_some() {
            return;
        }
        gone.await;
    }

    /// Waits until everything queued is written; the first write error, if any.
    pub(crate) async fn finish(self: &Arc<Self>) -> io::Result<()> {
        let _waiting = self.wait_idle();
        loop {
            let idle = self.idle.notified();
            {
                let mut queue = self.lock_queue();
                if !queue.writing && !queue.scheduled {
                    if queue.pending.is_empty() || queue.failed.is_some() {
                        return queue.failed.take().map_or(Ok(()), Err);
                    }
                    queue.writing = true;
                    self.drain(queue);
                    continue;
                }
            }
            idle.await;
        }
    }

    /// Signals `idle`, after the change made under `queue`, if anyone waits for it.
    fn signal_idle(&self, queue: MutexGuard<'_, Queue>) {
        let waited = queue.idle_waiters > 0;
        drop(queue);
        if waited {
            self.idle.notify_waiters();
        }
    }

    /// Counts the caller among those waiting for `idle` until the returned guard is dropped;
    /// call before making the first `Notified`.
    fn wait_idle(&self) -> IdleWaiter<'_> {
        self.lock_queue().idle_waiters += 1;
        IdleWaiter(self)
    }

    fn lock_queue(&self) -> MutexGuard<'_, Queue> {
        // A panic while holding the lock leaves the queue consistent: keep going.
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One waiting for a writer's `idle` ([`SharedWriter::wait_idle`]).
struct IdleWaiter<'a>(&'a SharedWriter);

impl Drop for IdleWaiter<'_> {
    fn drop(&mut self) {
        self.0.lock_queue().idle_waiters -= 1;
    }
}

/// The serving loop's hold on the writer (see [`SharedWriter::hold`]).
pub(crate) struct Hold(Arc<SharedWriter>);

impl Drop for Hold {
    fn drop(&mut self) {
        self.0.release();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An output whose first write waits until the test opens it.
    struct Gated {
        entered: std::sync::mpsc::Sender<()>,
        open: Arc<std::sync::Barrier>,
        sink: Sink,
        first: bool,
    }

    impl Write for Gated {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if std::mem::take(&mut self.first) {
                self.entered.send(()).unwrap();
                self.open.wait();
            }
            self.sink.write(buf)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// RELIABILITY.md, "stdio": with the output stuck, notifications are queued until twice
    /// the backlog limit waits, then dropped; replies are queued whatever waits.
    #[test]
    fn past_twice_the_backlog_notifications_are_dropped_and_replies_kept() {
        let (entered, has_entered) = std::sync::mpsc::channel();
        let open = Arc::new(std::sync::Barrier::new(2));
        let sink = Sink::default();
        let output = Gated {
            entered,
            open: Arc::clone(&open),
            sink: sink.clone(),
            first: true,
        };
        let writer = SharedWriter::new(output, 100);
        let first = {
            let writer = Arc::clone(&writer);
            std::thread::spawn(move || writer.send(b"first"))
        };
        has_entered.recv().unwrap();
        writer.send(&[b'x'; 150]);
        assert!(writer.send_droppable(b"kept"), "151 bytes wait, within 200");
        writer.send(&[b'y'; 100]);
        assert!(!writer.send_droppable(b"dropped"), "256 bytes wait");
        open.wait();
        first.join().unwrap();
        let written = String::from_utf8(sink.bytes.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = written
            .lines()
            .map(|line| &line[..line.len().min(5)])
            .collect();
        assert_eq!(lines, ["first", "xxxxx", "kept", "yyyyy"]);
    }

    #[derive(Clone, Default)]
    struct Sink {
        bytes: Arc<Mutex<Vec<u8>>>,
        writes: Arc<Mutex<usize>>,
    }

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.bytes.lock().unwrap().extend_from_slice(buf);
            *self.writes.lock().unwrap() += 1;
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn messages_from_many_threads_arrive_whole_and_in_each_thread_s_order() {
        let sink = Sink::default();
        let writer = SharedWriter::new(sink.clone(), usize::MAX);
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let writer = Arc::clone(&writer);
                std::thread::spawn(move || {
                    for i in 0..1000 {
                        writer.send(format!("{t}:{i}").as_bytes());
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        finish(&writer).unwrap();
        let text = String::from_utf8(sink.bytes.lock().unwrap().clone()).unwrap();
        let mut next = [0; 4];
        for line in text.lines() {
            let (t, i) = line.split_once(':').unwrap();
            let (t, i): (usize, usize) = (t.parse().unwrap(), i.parse().unwrap());
            assert_eq!(i, next[t], "thread {t} out of order");
            next[t] += 1;
        }
        assert_eq!(next, [1000; 4]);
    }

    /// Waits for the writer on a runtime of its own.
    fn finish(writer: &Arc<SharedWriter>) -> io::Result<()> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(writer.finish())
    }

    #[test]
    fn what_the_holding_thread_sends_leaves_together_when_the_hold_ends() {
        let sink = Sink::default();
        let writer = SharedWriter::new(sink.clone(), usize::MAX);
        let hold = writer.hold();
        writer.send(b"one");
        writer.send(b"two");
        assert!(
            sink.bytes.lock().unwrap().is_empty(),
            "written during the hold"
        );
        // Another thread's message is not held back (outside a runtime, it writes at once,
        // taking what waits along).
        let other = Arc::clone(&writer);
        std::thread::spawn(move || other.send(b"three"))
            .join()
            .unwrap();
        assert_eq!(&*sink.bytes.lock().unwrap(), b"one\ntwo\nthree\n");
        writer.send(b"four");
        writer.send(b"five");
        drop(hold);
        assert_eq!(*sink.writes.lock().unwrap(), 2);
        finish(&writer).unwrap();
        assert_eq!(
            &*sink.bytes.lock().unwrap(),
            b"one\ntwo\nthree\nfour\nfive\n"
        );
    }

    #[test]
    fn replies_ready_together_on_a_runtime_share_one_write() {
        let sink = Sink::default();
        let writer = SharedWriter::new(sink.clone(), usize::MAX);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let tasks: Vec<_> = (0..100)
                .map(|i| {
                    let writer = Arc::clone(&writer);
                    tokio::spawn(async move { writer.send(format!("reply {i}").as_bytes()) })
                })
                .collect();
            for task in tasks {
                task.await.unwrap();
            }
            writer.finish().await.unwrap();
        });
        let text = String::from_utf8(sink.bytes.lock().unwrap().clone()).unwrap();
        assert_eq!(text.lines().count(), 100);
        assert!(
            *sink.writes.lock().unwrap() < 10,
            "{} writes",
            sink.writes.lock().unwrap()
        );
    }

    #[test]
    fn a_writer_nobody_sends_to_while_it_writes_keeps_one_buffer() {
        let sink = Sink::default();
        let writer = SharedWriter::new(sink.clone(), usize::MAX);
        for round in 0..3 {
            let hold = writer.hold();
            for i in 0..64 {
                writer.send(format!("reply {round}.{i}").as_bytes());
            }
            drop(hold);
            let queue = writer.lock_queue();
            assert!(queue.pending.is_empty() && queue.pending.capacity() > 0);
            assert_eq!(queue.spare.capacity(), 0, "a second buffer kept");
        }
        assert_eq!(*sink.writes.lock().unwrap(), 3);
    }

    #[test]
    fn after_a_write_error_messages_are_dropped_and_finish_reports_it() {
        struct Broken;
        impl Write for Broken {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let writer = SharedWriter::new(Broken, usize::MAX);
        writer.send(b"one");
        writer.send(b"two");
        let error = finish(&writer).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
    }
}
