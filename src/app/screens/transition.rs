//! What a screen's handling of a command asks of the app that holds it.

/// What a screen's handling of a command asks of the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transition<T = ()> {
    /// The screen stays up (it may have changed its own state).
    Stay,
    /// Close the screen: back to the one it was opened over.
    Close,
    /// Close the screen, then carry this out on the app (a question's answer).
    Then(T),
}

impl Transition {
    /// The same transition where the app takes something else after closing: a screen
    /// that asks nothing more of the app answers as one that could.
    pub fn widen<T>(self) -> Transition<T> {
        match self {
            Transition::Stay | Transition::Then(()) => Transition::Stay,
            Transition::Close => Transition::Close,
        }
    }
}
