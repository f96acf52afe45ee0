//! The tests that measure the memory of a whole process (this one's, or its children's): a
//! binary of their own, since tests running beside them in one process would move the figures.

mod long_play;
mod streams;
