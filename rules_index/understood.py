"""«Что понято»: the words of a search, in Russian, for the CLI and the search page alike.

One place for these labels, so that `python -m rules_index search` and the app say the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from rules_index.model import Answer, Evidence, Match, QueryWord

NOTHING = "В загруженных правилах об этом ничего нет."
# Over the clauses a clause number of an unanswered query finds: itself, those citing it, or nearest it.
POINTERS = "Пункты по номеру из запроса (как нашёлся каждый — под ним):"

# How a typed word matched, in a judge's words.
HOW: Mapping[str, str] = MappingProxyType(
    {
        "number": "номер пункта",
        "cited": "такого пункта нет в загруженных правилах, на него ссылается",
        "absent": "такого пункта нет в загруженных правилах, ближайшие номера",
        "exact": "точное слово",
        "form": "другая форма слова",
        "prefix": "по началу слова",
        "typo": "с опечаткой",
        "jargon": "жаргон",
        "akin": "похоже на жаргон",
        "translit": "транслит",
        "broader": "более общее слово",
        "opposite": "противоположное слово",
        "near": "близкое по смыслу слово",
        "derived": "родственное слово",
        "card": "название карты",
        "named": "карта базы",
        "term": "термин правил",
        "phrase": "фраза",
        "count": "число",
    }
)


def word_note(word: QueryWord) -> str:
    """«хост» → хозяин (жаргон); «211,10» → п. 211.10 (номер пункта); «паразит» (точное слово)."""
    how = HOW.get(word.how, word.how)
    if word.how == "named":  # «горного клеща» → Горный клещ — карта базы
        return f"«{word.word}» → {', '.join(word.found)} — {how}"
    if word.how in ("number", "cited", "absent"):
        shown = ", ".join(f"п. {cid}" for cid in word.found[:3]) + ("…" if len(word.found) > 3 else "")
        if word.how != "number":  # «536» — такого пункта нет…, на него ссылаются: п. 534.7
            return f"«{word.word}» — {how}: {shown}"
        return f"«{word.word}» → {shown} ({how})"
    found = [f for f in word.found if f.casefold() != word.word.casefold()]
    if word.how == "akin":  # «вражины» → противник (похоже на жаргон «враг»)
        return f"«{word.word}» → {', '.join(found[:3])} ({how} «{word.like}»)"
    if word.how == "translit":  # «vaila» → Вайл (транслит «вайла»)
        return f"«{word.word}» → {', '.join(found[:3] or [word.like])} ({how} «{word.like}»)"
    if word.how == "exact" or not found:
        return f"«{word.word}» ({how})"
    return f"«{word.word}» → {', '.join(found[:3])} ({how})"


def understood(words: Sequence[QueryWord]) -> str:
    """«Понято: …» over the words that matched, or «» when none did."""
    notes = [word_note(w) for w in words if w.how]
    if all(w.how == "count" for w in words if w.how):
        notes = []
    return "Понято: " + "; ".join(notes) if notes else ""


def not_found(words: Sequence[QueryWord]) -> str:
    """«Не нашлось в тексте: «ходит первым»» over the words that matched nothing, or «»."""
    missing = list(dict.fromkeys(w.word for w in words if not w.how))
    if not missing:
        return ""
    return "Не нашлось в тексте: " + ", ".join(f"«{w}»" for w in missing)


# Where a clause has a word of the question, when not in the rule itself.
# Under a clause whose source breaks off where the question is (the search page's link to it).
CUT_OFF_NOTE = "Здесь текст источника обрывается на полуслове: что было дальше, в загруженных правилах нет."

WHERE: Mapping[str, str] = MappingProxyType(
    {
        "example": "только в примере",
        "reference": "только в ссылке на другой пункт",
        "aside": "только в скобках, к слову",
        "frame": "только как время, когда действует пункт («на шаге …»)",
        "name": "в примере",
    }
)


def evidence_note(e: Evidence) -> str:
    """One word as evidence: «хост» → существо (более общее слово); «яда» (только в примере)."""
    how = HOW.get(e.how, e.how)
    where = WHERE.get(e.where, "")
    found = [f for f in e.found if f.casefold() != e.word.casefold()]
    arrow = f" → {found[0]}" if found and e.how not in ("exact", "card") else ""
    return f"«{e.word}»{arrow} ({how}{', ' + where if where else ''})"


def answer_lines(answer: Answer) -> list[str]:
    """Why the rules answer the query, or why not, in a judge's words: the clause the answer
    rests on and how each word of the question is there («Ответ есть: п. 211.4 — …»), the words
    that clause lacks; or «об этом ничего нет» with the reason and the nearest clause."""
    there = [evidence_note(e) for e in answer.evidence if e.where]
    elsewhere = [f"«{e.word}»" for e in answer.evidence if not e.where and e.how]
    lines: list[str] = []
    if answer.answered and answer.clause:
        if there:
            lines.append(f"Ответ есть: п. {answer.clause} — " + "; ".join(there))
        if elsewhere:
            lines.append(f"В п. {answer.clause} нет: " + ", ".join(elsewhere) + " (есть в других пунктах)")
    elif not answer.answered:
        if answer.reason:
            lines.append("Почему: " + answer.reason + ".")
        elif answer.clause and there:
            near = f"Ближе всего п. {answer.clause}: есть " + "; ".join(there)
            lines.append(near + (", нет " + ", ".join(elsewhere) if elsewhere else "") + ".")
    return lines


def match_note(m: Match) -> str:
    """One reason of one hit: «хост» → хозяином (жаргон); «211,10» (номер пункта)."""
    how = HOW.get(m.how, m.how)
    if m.how == "parent":  # no typed word: the clause came with its parent
        return f"подпункт п. {m.found}, найденного по запросу"
    if m.how == "named":
        return f"«{m.word}» → {m.found} — {how}"
    if m.how == "cited":
        return f"ссылается на п. {m.word}, которого нет в загруженных правилах"
    if m.how == "absent":
        return f"номер рядом с «{m.word}», которого нет в загруженных правилах"
    if m.how == "number" or not m.found or m.found.casefold() == m.word.casefold():
        return f"«{m.word}» ({how})"
    return f"«{m.word}» → «{m.found}» ({how})"


def hit_notes(matched: Sequence[Match]) -> str:
    """«Как нашлось: …» for one hit; every word named is one the user typed (a subclause that
    came only with its parent says so instead)."""
    notes = list(dict.fromkeys(match_note(m) for m in matched))
    return "Как нашлось: " + "; ".join(notes) if notes else ""
