"""Exercise checks on session state (real engine tensors) and expected-output matching."""
import pytest
from hypothesis import given, strategies as st

from gradrepl.engine import api
from gradrepl.tutor.check import check_state, parse_check
from gradrepl.tutor.expect import difference, matches

torch = api.TORCH


def detach_exercise_state(use_detach_):
    """Lesson 3's last exercise, answered right (detach) or wrong (detach_)."""
    x3 = torch["ones"](2, requires_grad=True)
    y3 = x3 ** 2 + 3
    z3 = (y3.detach_() if use_detach_ else y3.detach()) * x3
    z3.sum().backward()
    return {"x3": x3, "y3": y3, "z3": z3}


DETACH_CHECK = parse_check({
    "x3": {"grad": [4.0, 4.0]},
    "y3": {"value": [4.0, 4.0], "requires_grad": True, "grad_fn": "AddBackward0"},
    "z3": {"grad_fn": "MulBackward0"},
})


def test_right_answer_passes():
    assert check_state(DETACH_CHECK, detach_exercise_state(use_detach_=False)).passed


def test_wrong_answer_fails_on_flags_not_on_values():
    result = check_state(DETACH_CHECK, detach_exercise_state(use_detach_=True))
    assert [f.en for f in result.failures] == [
        "y3.requires_grad is False; expected True",
        "y3.grad_fn is None; expected AddBackward0",
    ]
    assert result.failures[1].get("zh") == "y3.grad_fn 是 None；应为 AddBackward0"


def test_values_compare_with_tolerance_and_shape():
    x = torch["tensor"]([1.0, 2.0])
    check = parse_check({"x": {"value": [1.00001, 2.0]}})
    assert check_state(check, {"x": x}).passed
    tight = parse_check({"x": {"value": [1.00001, 2.0], "atol": 0, "rtol": 0}})
    failure = check_state(tight, {"x": x}).failures[0]
    assert failure.en == "x is [1., 2.], which is not what the task asks for"   # never the answer
    assert "1.00001" not in failure.en + failure.zh and failure.expected == "[1., 2.]"
    wrong_shape = parse_check({"x": {"value": [[1.0, 2.0]]}})
    assert check_state(wrong_shape, {"x": x}).failures[0].en == "x has shape [2]; expected shape [1, 2]"
    shape = parse_check({"x": {"shape": [2], "dtype": "torch.float32"}})
    assert check_state(shape, {"x": x}).passed
    assert not check_state(parse_check({"x": {"dtype": "torch.float64"}}), {"x": x}).passed


def test_grad_none_missing_variables_and_non_tensors():
    x = torch["tensor"]([1.0], requires_grad=True)
    assert check_state(parse_check({"x": {"grad": "None"}}), {"x": x}).passed
    assert check_state(parse_check({"x": {"grad": [1.0]}}), {"x": x}).failures[0].en == "x.grad is None"
    assert check_state(parse_check({"q": {"value": 1}}), {}).failures[0].en == "there is no variable 'q' yet"
    assert check_state(parse_check({"n": {"value": 3}}), {"n": 3}).passed
    assert check_state(parse_check({"n": {"requires_grad": False}}), {"n": 3}).failures[0].en == \
        "'n' should be a tensor"
    assert not check_state(parse_check({"n": {"value": 3}}), {"n": "3"}).passed


@pytest.mark.parametrize("table, message", [
    ({}, "at least one variable"),
    ({"x": 1}, "must be a table"),
    ({"x": {}}, "expects nothing"),
    ({"x": {"value": "one"}}, "value must be"),
    ({"x": {"grad": [[1, 2], [3]]}}, "grad must be .* rectangular"),
    ({"x": {"requires_grad": 1}}, "true or false"),
    ({"x": {"shape": [2, -1]}}, "list of sizes"),
    ({"x": {"grad_fn": 3}}, "a name or a list of accepted names"),
        ({"x": {"backward_runs": -1}}, "must be a count"),
    ({"atol": "big", "x": {"value": 1}}, "atol must be a number"),
])
def test_bad_check_tables_are_refused(table, message):
    with pytest.raises(ValueError, match=message):
        parse_check(table)


# expected output ---------------------------------------------------------

def test_addresses_and_ellipsis_are_wildcards():
    assert matches("<AddBackward0 object at 0x7f7fa5d39550>", "<AddBackward0 object at 0x55d0c0ffee>")
    assert matches("<AddBackward0 object at 0x...>", "<AddBackward0 object at 0x55d0c0ffee>")
    assert not matches("<AddBackward0 object at 0x...>", "<MulBackward0 object at 0x55d0c0ffee>")
    assert matches("tensor([...,  2.0000])", "tensor([-0.1234,  2.0000])")
    assert matches("a\n...\nz", "a\nb\nc\nz")


def test_trailing_space_and_blank_lines_do_not_matter_but_the_rest_does():
    assert matches("tensor(1.)\n", "tensor(1.)   \n\n")
    assert not matches("tensor(1.)", "tensor(1.0)")
    assert not matches("", "something")
    assert matches("", "\n")
    assert difference("a\nb", "a\nc") == "--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n a\n-b\n+c"
    assert difference("a", "a") == ""


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60))
def test_any_text_matches_itself(text):
    # regex metacharacters, dots and hex-looking words in the text are all literal or wildcards
    assert matches(text, text)


def test_a_number_accepts_any_one_element_tensor_unless_a_shape_is_named():
    s = torch["tensor"]([14.0])
    assert check_state(parse_check({"s": {"value": 14.0}}), {"s": s}).passed
    assert not check_state(parse_check({"s": {"value": 15.0}}), {"s": s}).passed
    shaped = check_state(parse_check({"s": {"value": 14.0, "shape": []}}), {"s": s})
    assert [f.en for f in shaped.failures] == ["s.shape is [1]; expected []"]   # said once


def test_a_wrong_shape_is_said_once():
    x = torch["tensor"]([1.0, 2.0])
    result = check_state(parse_check({"x": {"value": [[1.0, 2.0]], "shape": [1, 2]}}), {"x": x})
    assert [f.en for f in result.failures] == ["x.shape is [2]; expected [1, 2]"]


def test_grad_fn_may_name_several_accepted_nodes():
    p = torch["tensor"]([1.0, 2.0], requires_grad=True)
    check = parse_check({"q": {"grad_fn": ["PowBackward0", "MulBackward0"]}})
    assert check_state(check, {"q": p ** 2}).passed
    assert check_state(check, {"q": p * p}).passed
    result = check_state(check, {"q": p + p})
    assert result.failures[0].en == "q.grad_fn is AddBackward0; expected PowBackward0 or MulBackward0"
    with pytest.raises(ValueError):
        parse_check({"q": {"grad_fn": []}})


def test_backward_runs_counts_passes_through_the_lesson_built_tensor():
    from gradrepl.tutor.check import Watch

    check = parse_check({"y": {"backward_runs": 2}, "x": {"grad": [4.0, 8.0]}})

    def attempt(answer):
        x = torch["tensor"]([1.0, 2.0], requires_grad=True)
        namespace = {"x": x, "y": (x * x).sum()}
        watch = Watch(check, namespace)
        answer(namespace)
        try:
            return check_state(check, namespace, watch)
        finally:
            watch.close()

    def twice_through_one_graph(ns):
        ns["y"].backward(retain_graph=True)
        ns["y"].backward()

    def two_fresh_graphs(ns):      # the same x.grad, but y's graph ran once
        ns["y"].backward()
        (ns["x"] * ns["x"]).sum().backward()

    def rebinds_y(ns):
        for _ in range(2):
            ns["y"] = (ns["x"] * ns["x"]).sum()
            ns["y"].backward()

    assert attempt(twice_through_one_graph).passed
    assert [f.en for f in attempt(two_fresh_graphs).failures] == [
        "backward reached y once; the task needs it reached twice"]
    assert [f.en for f in attempt(rebinds_y).failures] == [
        "'y' must stay the tensor the lesson built (it was assigned again)"]


def test_a_closed_watch_leaves_no_hook_behind():
    from gradrepl.tutor.check import Watch

    x = torch["tensor"]([1.0], requires_grad=True)
    watch = Watch(parse_check({"x": {"backward_runs": 1}}), {"x": x})
    assert x._hooks
    watch.close()
    assert not x._hooks


def test_hints_never_recommend_what_the_lessons_call_unsafe():
    from gradrepl.lang.errors import hint_for

    leaf = hint_for("RuntimeError", "a leaf Variable that requires grad is being used in an in-place "
                    "operation.", "w -= 0.05 * w.grad")
    assert "no_grad" in leaf and ".data" not in leaf
    # after torch.autograd.grad without create_graph the gradient has no history: say so
    graphless = hint_for("RuntimeError", "element 0 of tensors does not require grad and does not have "
                         "a grad_fn", "torch.autograd.grad(g, x)")
    assert "create_graph=True" in graphless


def test_a_gradcheck_failure_at_a_kink_names_the_kink():
    from gradrepl.lang import Session, run_source
    from gradrepl.tutor.display import make_console
    from gradrepl.viz import repl_gradcheck

    session = Session(write=lambda text: None)
    run_source("x = torch.tensor([0., 1.], dtype=torch.float64, requires_grad=True)\ny = x.relu().sum()\n",
               session, trusted=False)
    console = make_console()
    with console.capture() as cap:
        console.print(repl_gradcheck(session, "y"))
    out = " ".join(cap.get().split())
    assert "FAIL" in out and "kink" in out and "relu" in out
