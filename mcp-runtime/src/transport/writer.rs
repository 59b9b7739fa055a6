//! Writing messages from whichever thread has one ready, without a writer thread.
//!
//! A message is appended to a shared buffer. The first message of a batch also schedules a
//! flush: a small task that yields once (so a worker busy with other requests finishes them
//! first, and their replies join the batch) and then writes the whole buffer with one `write`.
//! With one request in flight that costs no thread switch; with many, replies ready together
//! share a `write`. A burst that fills [`WRITE_NOW`] bytes before the flush has run is written
//! by the sender at once.
//!
//! The thread that reads the input never writes itself: blocked on a full output pipe, it
//! would stop reading, and a client that writes before it reads would deadlock with the
//! server. Outside a Tokio runtime (a notification sent from a plain thread) the sender writes.

use std::cell::Cell;
use std::io::{self, Write};
use std::mem;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// Above this many pending bytes a sender writes at once instead of waiting for the flush.
const WRITE_NOW: usize = 256 * 1024;
/// Above this, a buffer's capacity is not kept once written (a burst should not pin memory).
const KEEP_CAPACITY: usize = 1024 * 1024;

thread_local! {
    /// Whether this thread reads the transport's input (and so must never block on output).
    static READER: Cell<bool> = const { Cell::new(false) };
}

/// Marks the current thread as the input reader.
pub(crate) fn mark_reader_thread() {
    READER.with(|reader| reader.set(true));
}

pub(crate) struct SharedWriter<W> {
    queue: Mutex<Queue>,
    /// Signalled whenever `writing` or `scheduled` is cleared.
    idle: Condvar,
    /// Only ever locked by the thread that is writing, so never contended.
    output: Mutex<W>,
}

#[derive(Default)]
struct Queue {
    /// Messages waiting to be written, each followed by a newline.
    pending: Vec<u8>,
    /// A written buffer kept for its capacity.
    spare: Vec<u8>,
    /// Whether a thread is writing (and will write `pending` before it stops).
    writing: bool,
    /// Whether a flush task is on its way (and will write `pending` unless someone else does).
    scheduled: bool,
    /// The first write error; once set, messages are dropped.
    failed: Option<io::Error>,
}

impl<W: Write + Send + 'static> SharedWriter<W> {
    pub(crate) fn new(output: W) -> Arc<SharedWriter<W>> {
        Arc::new(SharedWriter {
            queue: Mutex::new(Queue::default()),
            idle: Condvar::new(),
            output: Mutex::new(output),
        })
    }

    /// Queues one message (a newline is added) to be written soon.
    pub(crate) fn send(self: &Arc<Self>, message: &[u8]) {
        let mut queue = self.lock_queue();
        if queue.failed.is_some() {
            return;
        }
        queue.pending.reserve(message.len() + 1);
        queue.pending.extend_from_slice(message);
        queue.pending.push(b'\n');
        if queue.writing {
            return;
        }
        let reader = READER.with(Cell::get);
        if queue.scheduled && (reader || queue.pending.len() < WRITE_NOW) {
            return;
        }
        if !queue.scheduled {
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                queue.scheduled = true;
                drop(queue);
                let writer = Arc::clone(self);
                drop(runtime.spawn(async move {
                    tokio::task::yield_now().await;
                    writer.flush();
                }));
                return;
            }
            if reader {
                // No runtime to write from: a thread of its own, for this rare case.
                queue.scheduled = true;
                drop(queue);
                let writer = Arc::clone(self);
                std::thread::spawn(move || writer.flush());
                return;
            }
        }
        queue.writing = true;
        self.drain(queue);
    }

    /// The scheduled flush: writes what is pending unless another thread already is.
    fn flush(&self) {
        let mut queue = self.lock_queue();
        queue.scheduled = false;
        if queue.writing || queue.pending.is_empty() {
            drop(queue);
            self.idle.notify_all();
            return;
        }
        queue.writing = true;
        self.drain(queue);
    }

    /// Writes until nothing is pending. Called by the thread that set `writing`.
    fn drain<'a>(&'a self, mut queue: MutexGuard<'a, Queue>) {
        loop {
            let spare = mem::take(&mut queue.spare);
            let mut chunk = mem::replace(&mut queue.pending, spare);
            drop(queue);
            let written = {
                let mut output = self.output.lock().unwrap_or_else(|e| e.into_inner());
                output.write_all(&chunk).and_then(|()| output.flush())
            };
            queue = self.lock_queue();
            chunk.clear();
            if chunk.capacity() <= KEEP_CAPACITY && queue.spare.capacity() < chunk.capacity() {
                queue.spare = chunk;
            }
            if let Err(error) = written {
                queue.failed = Some(error);
                queue.pending = Vec::new();
            }
            if queue.pending.is_empty() {
                queue.writing = false;
                drop(queue);
                self.idle.notify_all();
                return;
            }
        }
    }

    /// Waits until everything queued is written (blocking: call it off the runtime's workers,
    /// which run the flush); the first write error, if any.
    pub(crate) fn finish(&self) -> io::Result<()> {
        let mut queue = self.lock_queue();
        while queue.writing || queue.scheduled {
            queue = self.idle.wait(queue).unwrap_or_else(|e| e.into_inner());
        }
        if !queue.pending.is_empty() && queue.failed.is_none() {
            queue.writing = true;
            self.drain(queue);
            queue = self.lock_queue();
        }
        match queue.failed.take() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    fn lock_queue(&self) -> MutexGuard<'_, Queue> {
        // A panic while holding the lock leaves the queue consistent: keep going.
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let writer = SharedWriter::new(sink.clone());
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
        writer.finish().unwrap();
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

    #[test]
    fn the_reader_thread_hands_writing_off_and_finish_waits_for_it() {
        let sink = Sink::default();
        let writer = SharedWriter::new(sink.clone());
        let runtime = tokio::runtime::Builder::new_multi_thread().build().unwrap();
        let reader_writer = Arc::clone(&writer);
        let handle = runtime.handle().clone();
        std::thread::spawn(move || {
            let _runtime = handle.enter();
            mark_reader_thread();
            reader_writer.send(b"from the reader");
        })
        .join()
        .unwrap();
        writer.finish().unwrap();
        assert_eq!(&*sink.bytes.lock().unwrap(), b"from the reader\n");
    }

    #[test]
    fn replies_ready_together_on_a_runtime_share_one_write() {
        let sink = Sink::default();
        let writer = SharedWriter::new(sink.clone());
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
            let finisher = Arc::clone(&writer);
            tokio::task::spawn_blocking(move || finisher.finish())
                .await
                .unwrap()
                .unwrap();
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
        let writer = SharedWriter::new(Broken);
        writer.send(b"one");
        writer.send(b"two");
        let error = writer.finish().unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
    }
}
