"""The rules of «Берсерк» as a cross-reference graph with a Russian search.

`load_default()` gives the embedded rules (РП 4.1-2 fragments); `load_paths` and `load_texts`
index any other rules text: .txt, .md, .rst, PDF, HTML or Word (.docx). `rules_index.versions`
keeps uploaded versions on the server. See CONTRACTS.md (rules_index) for the public API.
"""

from rules_index.errors import CorpusError, QueryError, VersionError
from rules_index.importers.dispatch import KINDS_TEXT, SUFFIXES
from rules_index.index import RulesIndex, load_default, load_paths, load_texts, tables_for
from rules_index.model import Citation, Duplicate, Hit, Integrity, Match, Paragraph, SourceInfo

__all__ = [
    "KINDS_TEXT",
    "SUFFIXES",
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
    "VersionError",
    "load_default",
    "load_paths",
    "load_texts",
    "tables_for",
]
