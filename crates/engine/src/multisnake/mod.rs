//! SOI Multisnake (seed 004): wrapping maps, +/- tiles, growth every T.
