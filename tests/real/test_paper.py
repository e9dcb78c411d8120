"""The paper values the real chapters compare with (attnspec.real.paper)."""


def test_paper_values_are_transcribed_once():
    from attnspec.real.paper import PAPER_VALUES

    keys = {(p.key, p.length) for p in PAPER_VALUES}
    assert len(keys) == len(PAPER_VALUES)
    assert {p.value for p in PAPER_VALUES if p.length == 1024} >= {
        "0.0942",
        "1.18",
        "27.51",
        "314.06",
        "95.12",
    }
