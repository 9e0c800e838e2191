//! Notes reach stderr by default only where no agent reads stderr as part
//! of the answer (`runtime::notes_wanted`): exit code 0. That is safe on
//! Gemini CLI only because it reads stderr when stdout is empty, and its
//! exit-0 answers always carry stdout: checked here over every Gemini
//! fixture payload, every decision kind, and the fail answers.

use std::path::Path;

use agenthooks::runtime::notes_wanted;
use agenthooks::{
    Decision, DecisionKind as D, DecodeOptions, Error, Fail, Policy, Provider, Response,
};
use serde_json::Value;

fn resp(exit_code: i32) -> Response {
    Response {
        exit_code,
        ..Response::default()
    }
}

#[test]
fn the_switch() {
    // Unset or empty: by the answer.
    assert!(notes_wanted(None, &resp(0)));
    assert!(notes_wanted(Some(""), &resp(0)));
    assert!(!notes_wanted(None, &resp(2)));
    assert!(!notes_wanted(None, &resp(1)));
    // Asked for: always, even where stderr is the reason.
    assert!(notes_wanted(Some("1"), &resp(2)));
    assert!(notes_wanted(Some("yes"), &resp(0)));
    // Turned off: never.
    for off in ["0", "off", "false", "NO"] {
        assert!(!notes_wanted(Some(off), &resp(0)), "{off}");
    }
}

#[test]
fn gemini_never_answers_exit_0_with_empty_stdout() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/gemini");
    let mut checked = 0;
    let kinds = [
        Decision::no_decision(),
        Decision::allow(),
        Decision::deny("r"),
        Decision::ask("r"),
        Decision::block_prompt("r"),
        Decision::continue_with("r"),
        Decision::flag_output("r"),
        Decision::replace_output("r"),
    ];
    let check = |r: &Response, what: &str| {
        if r.exit_code == 0 {
            assert!(
                !r.stdout.trim().is_empty(),
                "{what}: exit 0 with empty stdout"
            );
        }
    };
    for e in std::fs::read_dir(&dir).expect("fixtures/gemini") {
        let path = e.expect("entry").path();
        let v: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
        let Some(payload) = v.get("payload") else {
            continue;
        };
        let bytes = serde_json::to_vec(payload).expect("payload");
        let opts = DecodeOptions {
            event: v.get("event").and_then(Value::as_str).map(String::from),
            ..DecodeOptions::default()
        };
        let Ok(ev) = agenthooks::decode(Provider::Gemini, &bytes, &opts) else {
            continue;
        };
        for d in &kinds {
            let mut d = d.clone();
            if d.validate_for(ev.kind).is_err() {
                d = Decision::no_decision();
                d.kind = D::NoDecision;
            }
            let r = agenthooks::respond(&ev, &d, &Policy::default()).expect("respond");
            check(&r, &format!("{} {}", path.display(), d.kind.as_str()));
            checked += 1;
        }
        for fail in [Fail::Open, Fail::Closed] {
            let p = Policy {
                fail,
                ..Policy::default()
            };
            let err = Error::Handler {
                message: "x".into(),
            };
            check(
                &agenthooks::fail_response(Provider::Gemini, Some(&ev), &err, &p),
                "fail answer",
            );
            check(
                &agenthooks::fail_response(Provider::Gemini, None, &err, &p),
                "undecodable answer",
            );
        }
    }
    assert!(checked > 100, "checked {checked}");
}
