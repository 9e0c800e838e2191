//! The test kit's verdicts (`fixtures/simulate/verdicts/verdicts.json`):
//! every case through `verdict_json`, and the typed `verdict` agreeing with
//! it on real outcomes.

use agenthooks::simulate::verdict::verdict_json;
use agenthooks::testing::{self, Assertion, Scenario};
use agenthooks::{Decision, Router};
use serde_json::{Value, json};

fn cases() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/simulate/verdicts/verdicts.json"
    );
    let text = std::fs::read_to_string(path).expect("verdicts.json");
    let v: Value = serde_json::from_str(&text).expect("verdicts.json is JSON");
    v["cases"].as_array().expect("cases").clone()
}

#[test]
fn every_verdict_vector() {
    let cases = cases();
    assert!(cases.len() >= 10, "too few verdict vectors");
    let mut failures = Vec::new();
    for c in &cases {
        let req = json!({"assertion": c["assertion"], "outcomes": c["outcomes"]});
        let got: Value = serde_json::from_str(&verdict_json(&req.to_string())).expect("JSON");
        let offending: Vec<Value> = got["offending"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|o| json!({"index": o["index"], "agent": o["agent"]}))
                    .collect()
            })
            .unwrap_or_default();
        let want_nothing = c["nothing_checked"].as_bool() == Some(true);
        let ok = got["holds"] == c["holds"]
            && got["checked"] == c["checked"]
            && Value::Array(offending.clone()) == c["offending"]
            && got.get("nothing_checked").is_some() == want_nothing
            && got["offending"].as_array().is_some_and(|a| {
                a.iter()
                    .all(|o| o["reason"].as_str().is_some_and(|r| !r.is_empty()))
            });
        if !ok {
            failures.push(format!("{}: got {got}", c["name"]));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn verdict_json_rejects_bad_requests() {
    for req in [
        "",
        "{}",
        r#"{"assertion": "blocked_somewhere", "outcomes": []}"#,
        r#"{"assertion": "runs_everywhere", "outcomes": [{"agent": "nobody"}]}"#,
        r#"{"assertion": "runs_everywhere", "outcomes": [{"agent": "codex", "prediction": {"effect": "explodes"}}]}"#,
        r#"{"assertion": "runs_everywhere", "outcomes": [], "extra": 1}"#,
    ] {
        let got: Value = serde_json::from_str(&verdict_json(req)).expect("JSON");
        let code = got["error"]["code"].as_str().unwrap_or("");
        assert!(
            code == "invalid_argument" || (code == "unknown_provider" && req.contains("nobody")),
            "{req}: {got}"
        );
    }
}

#[test]
fn typed_verdict_agrees_with_json_on_real_outcomes() {
    let mut r = Router::new();
    r.on_tool_pre(|e| {
        if e.tool.command().contains("rm -rf") {
            Decision::deny("no recursive deletes")
        } else {
            Decision::allow()
        }
    });
    let outcomes = testing::route(
        &r,
        &[Scenario::shell("rm -rf build"), Scenario::shell("ls")],
        testing::ALL,
    )
    .expect("route");
    let as_json = serde_json::to_value(&outcomes).expect("outcomes serialize");
    for a in Assertion::ALL {
        let typed = serde_json::to_value(testing::verdict(&outcomes, a)).expect("verdict");
        let req = json!({"assertion": a.as_str(), "outcomes": as_json});
        let via_json: Value = serde_json::from_str(&verdict_json(&req.to_string())).expect("JSON");
        assert_eq!(typed, via_json, "{}", a.as_str());
    }
    // The deny blocks rm -rf but also "blocks" nothing on ls: not blocked everywhere.
    let v = testing::verdict(&outcomes, Assertion::BlockedEverywhere);
    assert!(!v.holds && !v.offending.is_empty());
    assert!(
        v.offending
            .iter()
            .all(|o| o.scenario != outcomes[0].scenario || o.reason.contains("did not run"))
    );
    // A bare allow on ls is an empty allow somewhere.
    assert!(!testing::verdict(&outcomes, Assertion::NoEmptyAllow).holds);
}

#[test]
#[should_panic(expected = "blocked_everywhere does not hold")]
fn assert_blocked_everywhere_panics_with_the_offenders() {
    let r = Router::new();
    let outcomes =
        testing::route(&r, &[Scenario::shell("rm -rf build")], testing::ALL).expect("route");
    testing::assert_blocked_everywhere(&outcomes);
}
