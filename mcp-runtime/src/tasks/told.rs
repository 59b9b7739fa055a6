//! What one `subscriptions/listen` stream last told of each task it follows, so that it tells
//! each new status once.
//!
//! An announcement says only that a task changed; the stream then reads the task's record as
//! it stands. Two announcements may therefore read the same state: with Redis, the instance
//! that took `tasks/update`'s answers writes the record `working` at once, and an announcement
//! that reaches this instance late (an older status's, arriving after the stream opened) reads
//! that record before the running instance announces `working` itself. A state is new when its
//! status or its pending questions differ from what the stream last told (or, first, from what
//! the task stood at when the stream opened, which its client knows already).

use std::collections::HashMap;

use super::record::{Status, TaskRecord};

/// The last state told of each task followed: at most one entry per id the stream follows.
#[derive(Default)]
pub(crate) struct Told {
    last: HashMap<String, Seen>,
}

/// What makes one state of a task news: its status and the keys of its pending questions.
#[derive(PartialEq)]
struct Seen {
    status: Status,
    pending: Vec<String>,
}

impl Seen {
    fn of(record: &TaskRecord) -> Seen {
        Seen {
            status: record.status,
            pending: record.pending.iter().map(|(key, _)| key.clone()).collect(),
        }
    }
}

impl Told {
    /// The state the task stands at as the stream opens: not news to its client.
    pub(crate) fn known(&mut self, record: &TaskRecord) {
        self.last.insert(record.id.clone(), Seen::of(record));
    }

    /// Whether `record` says something the stream has not told; remembered when it does.
    pub(crate) fn is_news(&mut self, record: &TaskRecord) -> bool {
        let seen = Seen::of(record);
        if self.last.get(&record.id) == Some(&seen) {
            return false;
        }
        self.last.insert(record.id.clone(), seen);
        true
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn record(id: &str, status: Status, pending: &[&str]) -> TaskRecord {
        TaskRecord {
            pending: pending
                .iter()
                .map(|k| ((*k).to_owned(), json!({})))
                .collect(),
            ..TaskRecord::made_now(id, status)
        }
    }

    #[test]
    fn a_state_read_twice_is_told_once() {
        let mut told = Told::default();
        told.known(&record("t", Status::InputRequired, &["q"]));
        assert!(!told.is_news(&record("t", Status::InputRequired, &["q"])));
        assert!(told.is_news(&record("t", Status::Working, &[])));
        // Written again later, by the running instance: the same status, a newer timestamp.
        assert!(!told.is_news(&record("t", Status::Working, &[])));
        assert!(told.is_news(&record("t", Status::Completed, &[])));
        assert!(!told.is_news(&record("t", Status::Completed, &[])));
    }

    #[test]
    fn new_questions_are_news_in_the_same_status() {
        let mut told = Told::default();
        assert!(told.is_news(&record("t", Status::InputRequired, &["first"])));
        assert!(told.is_news(&record("t", Status::InputRequired, &["second"])));
        assert!(!told.is_news(&record("t", Status::InputRequired, &["second"])));
    }

    #[test]
    fn each_task_is_told_apart() {
        let mut told = Told::default();
        assert!(told.is_news(&record("t", Status::Working, &[])));
        assert!(told.is_news(&record("u", Status::Working, &[])));
        assert!(!told.is_news(&record("u", Status::Working, &[])));
    }
}
