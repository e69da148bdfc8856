"""The rules of «Берсерк» as a cross-reference graph with a Russian search.

`load_default()` gives the embedded rules (РП 4.1-2 fragments); `load_paths` and `load_texts`
index any other rules text. See CONTRACTS.md (rules_index) for the public API.
"""

from rules_index.errors import CorpusError, QueryError
from rules_index.index import RulesIndex, load_default, load_paths, load_texts
from rules_index.model import Citation, Duplicate, Hit, Integrity, Match, Paragraph, SourceInfo

__all__ = [
    "Citation",
    "CorpusError",
    "Duplicate",
    "Hit",
    "Integrity",
    "Match",
    "Paragraph",
    "QueryError",
    "RulesIndex",
    "SourceInfo",
    "load_default",
    "load_paths",
    "load_texts",
]
