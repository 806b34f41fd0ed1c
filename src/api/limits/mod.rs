//! Request rate limits (`[limits]`): per client address and per credential, failed
//! authentications per address, and console sign-in failures per address. Counted in each
//! instance's memory: behind a load balancer spreading over N instances a client gets up to N
//! times a limit, which the defaults, far above what a busy site sends, allow for.

pub mod client_address;
pub mod keyed;
pub mod middleware;
pub mod request_limits;
pub mod sign_in;
pub mod token_bucket;

pub use request_limits::RequestLimits;
