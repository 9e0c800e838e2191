//! The extern fns called from Rust through the rlib: ownership round
//! trips and double calls (the C program in tests/c covers the rest under
//! valgrind).

use agenthooks_ffi::buf::{ah_buf_free, ah_buf_str};
use agenthooks_ffi::error_api::{ah_error_code, ah_error_free};
use agenthooks_ffi::event::{ah_event_decode, ah_event_free, ah_event_json};
use agenthooks_ffi::merge::{ah_fold_finish, ah_fold_free, ah_fold_new, ah_fold_push};
use agenthooks_ffi::respond::{
    ah_event_respond, ah_response_exit_code, ah_response_free, ah_response_stdout,
};
use agenthooks_ffi::{ah_buf, ah_error, ah_event, ah_response, ah_status, ah_str};

const PRE: &[u8] = br#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}"#;

fn text(s: ah_str) -> String {
    // SAFETY: a view the library returned, read before its owner is freed.
    let b = unsafe { std::slice::from_raw_parts(s.ptr.cast::<u8>(), s.len) };
    String::from_utf8(b.to_vec()).unwrap()
}

#[test]
fn decode_respond_free() {
    let mut ev: *mut ah_event = std::ptr::null_mut();
    let mut resp: *mut ah_response = std::ptr::null_mut();
    let p = b"codex";
    let d = br#"{"kind":"deny","reason":"no"}"#;
    // SAFETY: valid pointers and lengths; each handle is freed once.
    unsafe {
        let st = ah_event_decode(
            p.as_ptr(),
            p.len(),
            PRE.as_ptr(),
            PRE.len(),
            std::ptr::null(),
            &mut ev,
            std::ptr::null_mut(),
        );
        assert_eq!(st, ah_status::AH_OK);
        assert!(text(ah_event_json(ev)).contains(r#""kind":"tool.pre""#));
        let st = ah_event_respond(
            ev,
            d.as_ptr(),
            d.len(),
            std::ptr::null(),
            0,
            &mut resp,
            std::ptr::null_mut(),
        );
        assert_eq!(st, ah_status::AH_OK);
        assert!(text(ah_response_stdout(resp)).contains("deny"));
        assert_eq!(ah_response_exit_code(resp), 0);
        ah_response_free(resp);
        ah_event_free(ev);
    }
}

#[test]
fn fold_finish_twice_is_already_used() {
    // SAFETY: the fold and buffers are used while live and freed once.
    unsafe {
        let f = ah_fold_new();
        let d = br#"{"kind":"allow"}"#;
        let mut done = false;
        assert_eq!(
            ah_fold_push(f, d.as_ptr(), d.len(), &mut done, std::ptr::null_mut()),
            ah_status::AH_OK
        );
        assert!(done);
        let mut out: *mut ah_buf = std::ptr::null_mut();
        assert_eq!(
            ah_fold_finish(f, &mut out, std::ptr::null_mut()),
            ah_status::AH_OK
        );
        assert_eq!(text(ah_buf_str(out)), r#"{"kind":"allow"}"#);
        ah_buf_free(out);
        let mut err: *mut ah_error = std::ptr::null_mut();
        let mut again: *mut ah_buf = std::ptr::null_mut();
        assert_eq!(
            ah_fold_finish(f, &mut again, &mut err),
            ah_status::AH_ERR_ALREADY_USED
        );
        assert!(again.is_null());
        assert_eq!(ah_error_code(err), ah_status::AH_ERR_ALREADY_USED);
        ah_error_free(err);
        ah_fold_free(f);
    }
}
