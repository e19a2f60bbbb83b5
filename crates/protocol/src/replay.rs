//! The replay file format.
