//! The snakepit server.
