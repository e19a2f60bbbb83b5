//! Whether this server runs uploaded programs, and in which sandbox.
//!
//! With public sign-up (`registration = "open"`) anyone may upload a
//! program that then runs on the organiser's machine, so it runs only
//! inside the whole sandbox: every layer of [`needed`]. When one of them is
//! missing here (the start report says why) or switched off in
//! `[sandbox] layers_off`, the server says so at start, refuses to save
//! programs (before compiling them: a compiler reads what the program
//! names) and starts none of the saved ones, unless the organiser set
//! `[sandbox] allow_missing_layers = true`. Built-in bots and WebSocket
//! bots, which run elsewhere, play on. With closed registration the
//! organiser knows every player, and programs run with the layers there
//! are, as `snakepit play` runs them.
//!
//! Where programs do run, [`Policy::apply`] leaves out the layers switched
//! off and, with public sign-up, makes every needed layer required, so a
//! layer that fails later stops the start instead of being skipped.

use crate::config::Config;
use snakepit_bots::process::{Layer, LayerSet, SandboxLimits, SandboxReport};

/// The layers strangers' programs need: all of them, including any the
/// sandbox adds later.
pub fn needed() -> LayerSet {
    LayerSet::ALL
}

/// The layers of [`needed`] that strangers' programs would lack where the
/// sandbox detection found `report` and `off` is switched off, each with
/// why.
pub fn missing(report: &SandboxReport, off: LayerSet) -> Vec<(Layer, String)> {
    needed()
        .iter()
        .filter_map(|layer| {
            if off.contains(layer) {
                return Some((layer, "switched off in [sandbox] layers_off".to_string()));
            }
            report.unavailable_reason(layer).map(|why| (layer, why.to_string()))
        })
        .collect()
}

/// What the configuration and this machine's sandbox allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Needed layers that are missing, with why.
    missing: Vec<(Layer, String)>,
    /// The layers of `[sandbox] layers_off`.
    off: LayerSet,
    /// Sign-up is open to anyone.
    public: bool,
    /// `[sandbox] allow_missing_layers`.
    allow_missing: bool,
}

impl Policy {
    /// The policy of `cfg` on this machine (the sandbox detection made once
    /// per process).
    pub fn of(cfg: &Config) -> Policy {
        Policy::with_report(cfg, SandboxReport::cached())
    }

    /// The policy of `cfg` where the sandbox detection found `report`.
    pub fn with_report(cfg: &Config, report: &SandboxReport) -> Policy {
        // An unknown name stops the start (`Config::check`); none is left
        // by the time programs run.
        let off = cfg.sandbox.layers_off().unwrap_or(LayerSet::NONE);
        Policy { missing: missing(report, off), off, public: cfg.registration_open(), allow_missing: cfg.sandbox.allow_missing_layers }
    }

    /// Why uploaded programs do not run here, in words for the player and
    /// the organiser; `None` when they run.
    pub fn refusal(&self) -> Option<String> {
        if !self.public || self.allow_missing || self.missing.is_empty() {
            return None;
        }
        Some(format!(
            "this server runs no uploaded programs: sign-up is open to anyone and its sandbox lacks {} ({}); \
             the organiser may run it where every layer holds (as root), or set [sandbox] allow_missing_layers = true",
            self.missing_names(),
            self.missing.iter().map(|(l, why)| format!("{l}: {why}")).collect::<Vec<_>>().join("; "),
        ))
    }

    /// The missing layers' names, joined.
    fn missing_names(&self) -> String {
        let names: Vec<&str> = self.missing.iter().map(|(l, _)| l.name()).collect();
        names.join(", ")
    }

    /// Sets the layers of a program's sandbox: without those switched off,
    /// and with public sign-up every needed layer required.
    pub fn apply(&self, limits: &mut SandboxLimits) {
        for layer in self.off.iter() {
            limits.layers = limits.layers.without(layer);
        }
        limits.layers_required = if self.public && !self.allow_missing { needed() } else { LayerSet::NONE };
    }

    /// Says at start what the policy means here: an error when programs
    /// will not run, a warning when they run without a layer.
    pub fn log_at_start(&self) {
        if self.missing.is_empty() {
            return;
        }
        if let Some(why) = self.refusal() {
            tracing::error!("uploaded programs will not run: {why}");
        } else if self.public {
            tracing::warn!(
                "uploaded programs of anyone who signs up run without the sandbox layers {}, as [sandbox] allow_missing_layers = true allows",
                self.missing_names()
            );
        } else {
            tracing::warn!(
                "uploaded programs run without the sandbox layers {} (registration is closed: only players the organiser added upload)",
                self.missing_names()
            );
        }
    }
}

/// `Err` with the reason when uploaded programs do not run under `cfg`.
pub fn check(cfg: &Config) -> Result<(), String> {
    Policy::of(cfg).refusal().map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use snakepit_bots::process::LayerStatus;

    fn report(off: &[Layer]) -> SandboxReport {
        SandboxReport {
            layers: Layer::ALL
                .into_iter()
                .map(|l| {
                    let status =
                        if off.contains(&l) { LayerStatus::Unavailable("not here".into()) } else { LayerStatus::Active("on".into()) };
                    (l, status)
                })
                .collect(),
        }
    }

    fn config(text: &str) -> Config {
        let cfg: Config = toml::from_str(text).unwrap();
        cfg.check().unwrap();
        cfg
    }

    #[test]
    fn open_sign_up_refuses_programs_without_every_layer_unless_allowed() {
        let open = config("");
        let full = Policy::with_report(&open, &report(&[]));
        assert_eq!(full.refusal(), None);
        let mut limits = SandboxLimits::default();
        full.apply(&mut limits);
        assert_eq!((limits.layers, limits.layers_required), (LayerSet::ALL, LayerSet::ALL));

        let lacking = Policy::with_report(&open, &report(&[Layer::PidNamespace]));
        let why = lacking.refusal().expect("refused");
        assert!(why.contains("lacks pid namespace (pid namespace: not here)") && why.contains("allow_missing_layers = true"), "{why}");

        let switched = Policy::with_report(&config("[sandbox]\nlayers_off = [\"ipc namespace\"]\n"), &report(&[]));
        let why = switched.refusal().expect("a layer switched off is missing");
        assert!(why.contains("ipc namespace: switched off in [sandbox] layers_off"), "{why}");

        let allowed = Policy::with_report(&config("[sandbox]\nallow_missing_layers = true\nlayers_off = [\"ipc namespace\"]\n"), &report(&[Layer::Seccomp]));
        assert_eq!(allowed.refusal(), None);
        let mut limits = SandboxLimits::default();
        allowed.apply(&mut limits);
        assert!(!limits.layers.contains(Layer::IpcNamespace) && limits.layers.contains(Layer::Seccomp), "{:?}", limits.layers);
        assert_eq!(limits.layers_required, LayerSet::NONE);

        let closed = Policy::with_report(&config("registration = \"closed\"\n"), &report(&[Layer::MinimalRoot]));
        assert_eq!(closed.refusal(), None, "the organiser added every player");
    }
}
