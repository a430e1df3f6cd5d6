"""Example demo: the Tally counter page next to this script (no server needed).

    demo record demo/examples/tally.py --out /tmp/tally-demo
"""


def run(d):
    d.goto("site/index.html")
    d.beat("open", say="This is Tally, a counter that fits on one page.")
    d.click("#add")
    d.beat("add", say="One click adds one, and the page turns green.")
    d.type("#name", "Ada")
    d.click("#hello")
    d.beat("greet", say="Type a name, press Greet, and Tally says hello.")
    d.scroll(selector="#more")
    d.beat("end", say="And that is all there is to it.")
