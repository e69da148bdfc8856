"""Hostile rules documents, generated in memory for the tests and `make bench` (never committed):
a PDF of thousands of pages whose lines never end a sentence, a Word file whose document text
unpacks to about 95 MB, a text of hundreds of thousands of one-line clauses. No pytest import.

The PDF is written here byte by byte (one standard font, one content stream per page): it is
the shape a script or a careless export makes, and the cost of reading it is the importer's,
not a converter's. The Word file is a real zip with the parts Word needs.
"""

from __future__ import annotations

import io
import zipfile

_WORDS = ("symbiote", "host", "parasite", "squad", "cell", "effect", "card", "turn", "field", "owner")


def endless_pdf(pages: int, lines_per_page: int = 60) -> bytes:
    """A PDF of `pages` A4 pages of text in Helvetica whose lines never end a sentence, so every
    line continues the paragraph before it (the shape that made the old assembly quadratic)."""
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    pages_id = len(objects) + 1 + 2 * pages  # the Pages object comes after every page and stream
    kids: list[int] = []
    for p in range(pages):
        rows = []
        for i in range(lines_per_page):
            words = " ".join(_WORDS[(p * 7 + i * 3 + k) % len(_WORDS)] for k in range(9))
            rows.append(f"({words} {p} {i}) Tj T*".encode())
        stream = b"BT /F1 10 Tf 12 TL 50 800 Td " + b" ".join(rows) + b" ET"
        content = add(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        kids.append(
            add(
                b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 595 842] /Contents %d 0 R "
                b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (pages_id, content, font)
            )
        )
    pages_obj = add(
        b"<< /Type /Pages /Count %d /Kids [%s] >>" % (pages, b" ".join(b"%d 0 R" % k for k in kids))
    )
    assert pages_obj == pages_id
    catalog = add(b"<< /Type /Catalog /Pages %d 0 R >>" % pages_obj)
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(
        b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, catalog, xref)
    )
    return out.getvalue()


_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/word/document.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
    "</Types>"
)
_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
    'officeDocument" Target="word/document.xml"/></Relationships>'
)
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def huge_docx(unpacked_mb: int = 95) -> bytes:
    """A .docx whose word/document.xml unpacks to about `unpacked_mb` MB (about ten times its
    packed size, far under any zip-bomb ratio): numbered clauses in verbose run markup, as a
    word processor writes them."""
    run = (
        '<w:p w:rsidR="{r:08X}"><w:pPr><w:spacing w:after="0"/></w:pPr><w:r w:rsidRPr="{q:08X}"><w:rPr>'
        '<w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman"/><w:sz w:val="24"/></w:rPr>'
        '<w:t xml:space="preserve">{n}. {words}.</w:t></w:r></w:p>'
    )
    vocabulary = ("симбиот", "хозяин", "паразит", "отряд", "клетка", "эффект", "карта", "ход", "поле", "бой")
    target = unpacked_mb * 1024 * 1024
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr("[Content_Types].xml", _CONTENT_TYPES)
        archive.writestr("_rels/.rels", _RELS)
        with archive.open("word/document.xml", "w", force_zip64=True) as doc:
            doc.write(f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{_W}"><w:body>'.encode())
            written, i = 0, 0
            while written < target:
                chunk = "".join(
                    run.format(
                        r=(i + j) * 2654435761 % 2**32,
                        q=(i + j) * 40503 % 2**32,
                        n=f"{100 + (i + j) // 500}.{(i + j) % 500 + 1}",
                        words=" ".join(vocabulary[(i + j) * 31 // (k + 1) % 10] for k in range(8)),
                    )
                    for j in range(1000)
                ).encode()
                doc.write(chunk)
                written += len(chunk)
                i += 1000
            doc.write(b"</w:body></w:document>")
    return out.getvalue()


def many_clauses(count: int = 700_000) -> bytes:
    """A text of `count` one-line clauses with no text («100.1.»): about 8 bytes each (the 4.9 MB
    of 700,000 the probe sent took 18 s and 1.2 GB)."""
    return "\n".join(f"{100 + i // 900}.{i % 900 + 1}." for i in range(count)).encode()
