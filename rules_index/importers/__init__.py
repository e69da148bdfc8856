"""Importers of rules documents: text (.txt/.md/.rst), PDF, web pages (HTML) and Word (.docx).

`rules_index.importers.dispatch.import_file` chooses one; each returns `common.Imported`.
"""
