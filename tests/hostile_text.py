"""Hostile text for property tests (issue 26): lone surrogates, control characters, and Markdown
or HTML that would fetch an image or make a link if a page rendered it as markup.

`hostile()` draws text mixing ordinary Russian words with those pieces; `EVIL` is the host every
payload points at, so a test can assert that no image or link on a page leads there.
"""

from __future__ import annotations

from hypothesis import strategies as st

EVIL = "evil.example"
MARKUP = (
    f"![x](http://{EVIL}/a.png)",
    f"[сюда](http://{EVIL}/)",
    f"<img src=http://{EVIL}/b.png>",
    f'<a href="http://{EVIL}/">ссылка</a>',
    f"http://{EVIL}/c",
    f"www.{EVIL}",
    f"judge@{EVIL}",
    "**жирный**",
    "_курсив_",
    ":red[красный]",
    "$x^2$",
    "# заголовок",
    "> цитата",
    "`код`",
    "<script>alert(1)</script>",
    "| a | b |",
)
BAD_CHARS = ("\ud800", "\udfff", "\x00", "\x07", "\x1b", "\x7f", "\x85", "\u202e", "\u2066")
WORDS = ("Карлик Унд", "Бул'Багур", "симбиот", "211.3.1", "хозяин", "ё", "и\u0306")


def hostile(bad: bool = True) -> st.SearchStrategy[str]:
    """Text of ordinary words and markup; with `bad`, also lone surrogates and control characters."""
    pieces = [st.sampled_from(WORDS), st.sampled_from(MARKUP), st.text(max_size=8)]
    if bad:
        pieces.append(st.sampled_from(BAD_CHARS))
    return st.lists(st.one_of(*pieces), min_size=1, max_size=6).map(" ".join)


def markup() -> st.SearchStrategy[str]:
    """Text with markup and no characters that cannot be shown: what clean text may still hold."""
    return hostile(bad=False).filter(lambda s: not any(ch in s for ch in BAD_CHARS))
