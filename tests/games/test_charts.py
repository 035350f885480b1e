"""The inline SVG charts' axis labels."""

from games import charts


def test_a_round_of_several_decisions_is_labelled_once_at_its_first():
    rounds = [1, 1, 1, 2, 2, 3, 4, 4, 4, 4, 5]
    points = [(r, [50]) for r in rounds]
    chart = charts.chart(points, ["anna"], ["blue"], top=100)
    xs = {i: p["x"] for i, p in enumerate(chart["rounds"])}
    assert [(label["text"], label["x"]) for label in chart["labels"]] == [
        (1, xs[0]),
        (2, xs[3]),
        (3, xs[5]),
        (4, xs[6]),
        (5, xs[10]),
    ]


def test_labels_are_thinned_to_the_number_asked_for_never_repeating_a_round():
    rounds = [r for r in range(1, 16) for _ in range(6)]
    chart = charts.chart([(r, [50]) for r in rounds], ["anna"], ["blue"], labels=12, top=100)
    texts = [label["text"] for label in chart["labels"]]
    assert texts == [1, 3, 5, 7, 9, 11, 13, 15]
