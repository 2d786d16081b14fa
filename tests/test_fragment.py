"""The dashboard's view in the page's URL fragment (the shooting inputs, the open tab, the workbench's setup):
written after every change, read back to the same view."""

from __future__ import annotations

import base64
import json
import zlib

import pytest

from praetor_analysis.errors import ScenarioError
from praetor_analysis.views.dashboard.fragment import MAX_SETUP, decode_page, decode_view, encode_page, encode_view
from praetor_analysis.views.dashboard.view import DashboardState

pytest.importorskip("anywidget")

WEAPONS = [3, 17, 40]
TARGETS = ["Rhino", "Legionary (Tactical Squad)", "Militia & Co"]


def test_a_state_round_trips():
    s = DashboardState(
        weapons=(17, 3),
        targets=("Militia & Co", "Rhino"),
        bs=5,
        attacker_models=3,
        target_models=12,
        cover="4+",
        fnp="5+",
        half_range=True,
        metric="p_any",
        focus_target="Rhino",
        focus_weapon=3,
        reroll_hits="ones",
        reroll_wounds="all",
        to_hit=-1,
        to_wound=1,
        charging=True,
        furious_charge=True,
        preferred_enemy=True,
    )
    text = encode_view(s)
    assert "Militia%20%26%20Co" in text and "bs=5" in text and "#" not in text
    assert decode_view(text, WEAPONS, TARGETS) == s
    assert decode_view("#" + text, WEAPONS, TARGETS) == s
    plain = DashboardState(weapons=(40,), targets=("Rhino",))
    assert encode_view(plain) == "weapons=40&targets=Rhino"  # the defaults are left out
    assert decode_view(encode_view(plain), WEAPONS, TARGETS) == plain


@pytest.mark.parametrize(
    ("fragment", "message"),
    [
        ("colour=red", "fragment colour: not a field of the view"),
        ("bs=11", "fragment bs: 1 to 10, got 11"),
        ("bs=four", "fragment bs: expected a whole number, got 'four'"),
        ("weapons=3,99", "fragment weapons: '99' is not a row of the weapon catalog"),
        ("targets=Knight", "fragment targets: 'Knight' is not a target of this page"),
        ("cover=1%2B", "fragment cover: one of -, 6+, 5+, 4+, 3+, got '1+'"),
        ("charging=yes", "fragment charging: 0 or 1, got 'yes'"),
        ("focus_target=Knight", "fragment focus_target: 'Knight' is not a target of this page"),
        ("x" * 9000, "fragment: longer than 8000 characters"),
    ],
)
def test_a_bad_fragment_is_refused_on_one_line(fragment, message):
    with pytest.raises(ScenarioError) as err:
        decode_view(fragment, WEAPONS, TARGETS)
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_the_dashboard_writes_and_reads_its_fragment():
    from praetor_analysis.views.dashboard.app import Dashboard

    a = Dashboard()
    assert decode_view(a.fragment.fragment, a.weapons.index, list(a.targets["archetype"])) == a.state()
    a.bs.value, a.reroll_hits.value, a.cover.value = 3, "all", "5+"
    a.target_select.value = a.target_select.value[:2]
    written = a.fragment.fragment
    assert "bs=3" in written and "reroll_hits=all" in written
    b = Dashboard()
    b.fragment.opened_with = written  # what the page does when it opens with that address
    assert b.state() == a.state() and b.fragment.fragment == written
    assert b.fragment.outcome == "applied" and b.fragment.after == b.widget.model_id  # the page's answer
    for fa, fb in ((a.heatmap, b.heatmap), (a.curves, b.curves), (a.distribution, b.distribution)):
        ja, jb = fa.to_plotly_json(), fb.to_plotly_json()  # the same view, the same figures (uids aside)
        assert [{**t, "uid": None} for t in ja["data"]] == [{**t, "uid": None} for t in jb["data"]]
        assert ja["layout"] == jb["layout"]
    b.fragment.opened_with = "bs=0"
    assert "address was not used: fragment bs: 1 to 10, got 0" in b.status.value and b.state() == a.state()
    assert b.fragment.outcome == "refused"


def test_the_page_part_round_trips_and_a_bad_one_is_refused():
    setup = [{"name": "A vs B", "mode": "shooting", "attacker": {"name": "Tactical Squad", "size": 10}}]
    text = encode_page("weapons=3&targets=Rhino", "Targets, setup", setup)
    assert text.startswith("weapons=3&targets=Rhino&tab=Targets%2C%20setup&workbench=")
    view, tab, got = decode_page("#" + text, ["Shooting", "Targets, setup"])
    assert (view, tab) == ("weapons=3&targets=Rhino", "Targets, setup") and json.loads(got) == setup
    assert decode_page("bs=3", ["Shooting"]) == ("bs=3", None, None)
    assert encode_page("weapons=3") == "weapons=3"  # the first tab and no workbench: not written
    bomb = base64.urlsafe_b64encode(zlib.compress(b" " * (MAX_SETUP + 1), 9)).decode()
    for fragment, message in (
        ("tab=Knights", "fragment tab: one of Shooting, Workbench, got 'Knights'"),
        ("workbench=%%%", "fragment workbench: not a workbench setup written by this page"),
        ("workbench=" + base64.urlsafe_b64encode(b"plain").decode(), "fragment workbench: not a workbench setup"),
        ("workbench=" + bomb, f"fragment workbench: longer than {MAX_SETUP} bytes once inflated"),
    ):
        with pytest.raises(ScenarioError) as err:
            decode_page(fragment, ["Shooting", "Workbench"])
        assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_a_workbench_view_round_trips():
    from praetor_analysis.views.dashboard.app import Dashboard

    a = Dashboard()
    wb = a.workbench  # built (its tab opened)
    wb.reroll_hits.value, wb.to_wound.value, wb.charging.value = "ones", 1, True
    wb.add_attacker()  # a second Tactical Squad with its own modifiers
    a.widget.selected_index = 1
    a.cover.value = "5+"
    wb.targets.value = wb.targets.value[:2]
    wb.half_range.value = True  # the workbench's changes written too
    written = a.fragment.fragment
    assert "tab=Workbench" in written and "&workbench=" in written and "cover=5%2B" in written
    b = Dashboard()
    b.fragment.opened_with = written  # what the page does when it opens with that address
    assert b.fragment.outcome == "applied" and b.widget.selected_index == 1
    assert b.workbench.scenarios() == wb.scenarios() and len(wb.scenarios()) == 4
    assert [x.modifiers for x in b.workbench.attackers] == [x.modifiers for x in wb.attackers]
    assert b.workbench.table.value == wb.table.value and b.workbench.half_range.value
    assert b.state() == a.state() and b.fragment.fragment == written
    c = Dashboard()
    c.fragment.opened_with = written.replace("tab=Workbench", "tab=Nowhere")
    assert c.fragment.outcome == "refused" and "fragment tab: one of Shooting, Workbench" in c.status.value
    assert not c.tabs.built(1) and c.widget.selected_index == 0  # nothing of it used
