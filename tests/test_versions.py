"""Stored rules versions: content-addressed, kept across restarts, shared and removed by one
function each; and the «Правила» page that lists, opens, shares and removes them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import rules_index
from app_pages import registry
from rules_index import versions
from rules_index.versions import BUILTIN, VersionStore, publish_version, remove_version
from tests import rules_docs
from tests.apptest import list_links
from tests.rulings_samples import PASSWORD

APP = str(Path(__file__).resolve().parent.parent / "app.py")
RULES = "900. Пробный раздел.\n900.1. Первый пункт, см. 900.2.\n900.2. Второй пункт.\nРП 9.9 от 01.01.2030"
HEROES = "100. Свойства.\n100.1. Свойства героя действуют всегда.\n100.2. Хост — это хозяин."


def save(
    store: VersionStore, text: str = RULES, name: str = "r.txt", berserk: bool = True
) -> versions.VersionInfo:
    files = [(name, text.encode())]
    return store.save(files, rules_index.load_texts(files, berserk=berserk), berserk=berserk)


def test_an_upload_is_stored_once_with_its_facts(tmp_path: Path) -> None:
    store = VersionStore(tmp_path)
    info = save(store)
    assert versions.is_version_id(info.id) and not info.shared
    assert info.label == "РП 9.9" and info.stamp == "РП 9.9 от 01.01.2030" and info.paragraphs == 3
    assert [f.name for f in info.files] == ["r.txt"] and info.berserk
    assert save(store).id == info.id  # the same content: the same version, stored once
    assert len(list(tmp_path.iterdir())) == 1
    meta = json.loads((tmp_path / info.id / "meta.json").read_text(encoding="utf-8"))
    assert meta["files"][0]["name"] == "r.txt" and meta["uploaded"]
    # the same text said to be other rules is another version (its tables differ)
    assert save(store, berserk=False).id != info.id


def test_a_restart_loses_nothing(tmp_path: Path) -> None:
    info = save(VersionStore(tmp_path))
    again = VersionStore(tmp_path)  # a new process opens the same folder
    assert again.get(info.id) == info
    ix = again.load(info.id)
    assert ix.get("900.2") is not None and ix.version_label == "РП 9.9"


def test_publish_and_remove_are_the_only_ways_to_change_what_everyone_sees(tmp_path: Path) -> None:
    store = VersionStore(tmp_path)
    info = save(store)
    assert store.versions(shared_only=True) == [] and store.default_id() == BUILTIN
    publish_version(store, info.id)
    assert [v.id for v in store.versions(shared_only=True)] == [info.id]
    assert store.default_id() == BUILTIN
    publish_version(store, info.id, make_default=True)
    assert store.default_id() == info.id
    publish_version(store, BUILTIN, make_default=True)
    assert store.default_id() == BUILTIN
    publish_version(store, info.id, make_default=True)
    removed = remove_version(store, info.id)
    assert removed.id == info.id and store.get(info.id) is None
    assert store.default_id() == BUILTIN  # the default falls back to the built-in rules
    with pytest.raises(rules_index.VersionError, match="уже удалили"):
        remove_version(store, info.id)
    with pytest.raises(rules_index.VersionError, match="Встроенные правила удалить нельзя"):
        remove_version(store, BUILTIN)
    with pytest.raises(rules_index.VersionError, match="нет на сервере"):
        publish_version(store, "0123456789abcdef")


def test_a_damaged_store_hides_one_version_and_says_why(tmp_path: Path) -> None:
    store = VersionStore(tmp_path)
    good, bad = save(store), save(store, RULES.replace("9.9", "9.8"))
    (tmp_path / bad.id / "meta.json").write_text("{не json", encoding="utf-8")
    assert [v.id for v in store.versions()] == [good.id]
    stored = next((tmp_path / good.id / "files").iterdir())
    stored.write_bytes(stored.read_bytes() + b" tampered")
    with pytest.raises(rules_index.VersionError, match="повреждён"):
        store.load(good.id)
    stored.unlink()
    with pytest.raises(rules_index.VersionError, match="пропал"):
        store.load(good.id)
    assert store.get("../../etc") is None and store.get("not-an-id") is None


def test_the_store_refuses_past_its_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = VersionStore(tmp_path)
    monkeypatch.setattr(versions, "MAX_STORE_BYTES", 10)
    with pytest.raises(rules_index.VersionError, match="Хранилище версий правил заполнено"):
        save(store)
    assert not any(p.name[:1] != "." for p in tmp_path.iterdir())  # nothing half-stored


def test_file_names_never_escape_the_store(tmp_path: Path) -> None:
    store = VersionStore(tmp_path)
    info = save(store, name="../../../evil/\\x.txt")
    assert [f.name for f in info.files] == ["../../../evil/\\x.txt"]
    stored = list((tmp_path / info.id / "files").iterdir())
    assert len(stored) == 1 and stored[0].parent == tmp_path / info.id / "files"
    assert store.files(info.id)[0][1] == RULES.encode()


def test_other_rules_get_none_of_our_tables() -> None:
    ours = rules_index.load_texts([("h.txt", HEROES.encode())])
    theirs = rules_index.load_texts([("h.txt", HEROES.encode())], berserk=False)
    assert ours.is_berserk_rules and not theirs.is_berserk_rules
    # a word the text itself uses finds itself first, in both
    assert [m.how for m in ours.search("хост")[0].matched] == ["exact"]
    # our jargon reads «хост» as «хозяин» where the text lacks «хост»; other rules take the word as it is
    text = [("h.txt", "100. Общие.\n100.1. Хозяин симбиота — существо.".encode())]
    lacking = rules_index.load_texts(text), rules_index.load_texts(text, berserk=False)
    assert any(m.how == "jargon" for h in lacking[0].search("хост") for m in h.matched)
    assert not any(m.how == "jargon" for h in lacking[1].search("хост") for m in h.matched)
    assert not any(m.how == "jargon" for h in theirs.search("хост") for m in h.matched)
    assert not rules_index.tables_for(False).jargon and not rules_index.tables_for(False).cards
    assert rules_index.tables_for(False).stopwords == rules_index.tables_for(True).stopwords


# The «Правила» page ------------------------------------------------------------------------------


def open_rules(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.query_params.clear()
    at.query_params.update(params)
    return at.switch_page(registry.RULES_PAGE.script).run()


def upload(at: AppTest, name: str, data: bytes, berserk: bool | None = True) -> AppTest:
    from app_pages import rules

    if berserk is not None:
        at.radio(key="rules_upload_berserk").set_value(rules.BERSERK_YES if berserk else rules.BERSERK_NO)
    at.file_uploader(key=rules.upload_key(at.session_state)).set_value(
        (name, data, "application/octet-stream")
    )
    return at.run()


def body(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [e.value for e in at.error] + [w.value for w in at.warning] + [s.value for s in at.success]
    parts += [i.value for i in at.info]
    return "\n".join(parts).replace("\\", "")


def test_the_page_asks_whose_rules_before_it_parses() -> None:
    at = upload(open_rules(), "r.txt", RULES.encode(), berserk=None)
    assert not at.exception and not at.success
    assert any("версия ли это правил «Берсерк»" in i.value for i in at.info)
    from app_pages import rules

    at.radio(key="rules_upload_berserk").set_value(rules.BERSERK_NO).run()
    assert at.success and "не применяются" in at.success[0].value


@pytest.fixture()
def judges(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A journal of this test's own with one judge's account (the page checks sign-ins in it)."""
    from rulings import store as journal
    from tests.rulings_samples import cheap_hasher

    path = tmp_path / "rulings.sqlite3"
    monkeypatch.setenv(journal.ENV_VAR, str(path))
    journal.Journal(path, hasher=cheap_hasher()).add_account("Сидорова", "judge", PASSWORD)
    return path


def sign_in(at: AppTest, password: str = "") -> AppTest:
    at.text_input(key="rules_signin_signin_name").input("Сидорова")
    at.text_input(key="rules_signin_signin_password").input(password or PASSWORD)
    return at.button(key="rules_signin_signin_submit").click().run()


def test_only_a_signed_in_judge_shares_makes_default_or_removes(rules_store: Path, judges: Path) -> None:
    at = upload(sign_in(open_rules()), "r.txt", RULES.replace("9.9", "9.4").encode())
    vid = str(at.query_params.get("v"))
    shop = VersionStore(rules_store)
    at = at.button(key="rules_signin_signout").click().run()  # the judge stored it and left
    # a player (nobody signed in) may open versions, but the buttons that change everyone's are gone
    for key in (f"rules_share_{vid}", f"rules_default_{vid}", f"rules_remove_{vid}"):
        with pytest.raises(KeyError):
            at.button(key=key)
    assert "Вход для судей" in at.get_by_key("rules_signin_box").proto.label  # type: ignore[attr-defined]
    at = sign_in(at, password="неверный")
    assert at.error and not shop.get(vid).shared  # type: ignore[union-attr]
    at = sign_in(at)
    assert "Вы вошли: Сидорова" in body(at)
    # a sign-in that ends between showing the button and the click: refused in Russian, nothing changed
    from app_pages.journal import form as journal_form

    signed = at.session_state[journal_form.JUDGE_KEY]
    from rulings import store as journal

    journal.Journal(judges).sign_out(signed)
    at.session_state[journal_form.JUDGE_KEY] = signed  # the tab still holds the dead token
    at.button(key=f"rules_share_{vid}").click().run()
    assert not at.exception and "войдите" in at.error[0].value.replace("\\", "")
    assert not shop.get(vid).shared  # type: ignore[union-attr]
    at = sign_in(at)
    at.button(key=f"rules_share_{vid}").click().run()
    assert "доступна всем" in at.success[0].value and "Сидорова" in at.success[0].value
    assert shop.get(vid).shared  # type: ignore[union-attr]
    # signing out hides the buttons again
    at.button(key="rules_signin_signout").click().run()
    with pytest.raises(KeyError):
        at.button(key=f"rules_remove_{vid}")


def test_upload_share_default_and_remove_on_the_page(rules_store: Path, judges: Path) -> None:
    at = upload(sign_in(open_rules()), "word.docx", rules_docs.corpus_docx(automatic=True))
    assert not at.exception, at.exception
    assert at.success and "пунктов 44" in at.success[0].value
    vid = at.query_params.get("v")
    assert versions.is_version_id(vid)
    info = VersionStore(rules_store).get(str(vid))
    assert info is not None and not info.shared and [f.name for f in info.files] == ["word.docx"]
    assert "открыта у вас" in body(at) and "только по ссылке" in body(at)
    # another judge does not see it in the list until it is shared
    other = open_rules()
    with pytest.raises(KeyError):
        other.get_by_key(f"rules_version_{vid}")
    assert "word.docx" not in body(other)
    at.button(key=f"rules_share_{vid}").click().run()
    assert "доступна всем" in at.success[0].value
    other = open_rules()
    assert "word.docx" in body(other)
    at.button(key=f"rules_default_{vid}").click().run()
    assert VersionStore(rules_store).default_id() == vid
    fresh = open_rules()  # a new window opens the default
    assert "word.docx" in next(m.value for m in fresh.markdown if "Откуда" in m.value).replace("\\", "")
    # removing asks first, then removes for everyone
    at.button(key=f"rules_remove_{vid}").click().run()
    assert any("Удалить версию" in w.value for w in at.warning)
    at.button(key=f"rules_remove_yes_{vid}").click().run()
    assert "удалена" in at.success[0].value
    assert VersionStore(rules_store).get(str(vid)) is None
    assert VersionStore(rules_store).default_id() == BUILTIN
    assert "РП 4.1-2" in next(m.value for m in at.markdown if "Версия" in m.value).replace("\\", "")


def test_a_link_to_a_removed_version_says_so(rules_store: Path) -> None:
    store = VersionStore(rules_store)
    info = save(store, RULES.replace("9.9", "9.7"))
    remove_version(store, info.id)
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update({"p": "211.4", "v": info.id})
    at.run()
    assert not at.exception
    assert any("такой версии нет" in w.value for w in at.warning)
    assert "Симбиота можно помещать" in "\n".join(t.value for t in at.text)


def test_a_stored_version_opens_from_its_link_in_a_new_session(rules_store: Path) -> None:
    info = save(VersionStore(rules_store), RULES.replace("9.9", "9.6"))
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update({"p": "900.2", "v": info.id})
    at.run()
    assert not at.exception
    assert "Второй пункт" in "\n".join(t.value for t in at.text)
    assert not at.warning
    codes = [c.value for c in at.code]
    assert codes == ["п. 900.2 (РП 9.6)"]


def test_a_duplicate_is_listed_once_and_a_hit_opens_the_entry_that_was_hit() -> None:
    text = "100. Раздел.\n100.1. Первый текст про гоблинов.\n100.1. Второй текст про драконов.\n100.2. Ещё."
    at = upload(open_rules(), "dup.txt", text.encode())
    assert sum("встречается" in w.value for w in at.warning) == 0  # not a second time as a warning
    assert sum(m.value.replace("\\", "").startswith("- 100.1:") for m in at.markdown) == 1
    at.query_params.clear()
    at.query_params.update({"q": "драконов"})
    at.switch_page(registry.ROOT.script).run()
    params = list_links(at.get_by_key("search_hits"))[0].params
    assert params["p"] == "100.1" and params["n"] == "2"
    at.query_params.clear()
    at.query_params.update(params)
    at.switch_page(registry.ROOT.script).run()
    shown = "\n".join(t.value for t in at.text)
    assert "Второй текст про драконов." in shown and "гоблинов" not in shown
    assert any("встречается 2 раза" in w.value for w in at.warning)


def test_the_store_folder_of_the_tests_is_not_the_projects() -> None:
    assert os.environ[versions.ENV_VAR] != str(versions.DEFAULT_ROOT)


def blank_pdf(password: str | None = None) -> bytes:
    import io

    import pypdf

    writer = pypdf.PdfWriter()
    writer.add_blank_page(200, 200)
    if password:
        writer.encrypt(user_password=password, owner_password=password + "!", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("name", "data", "needle"),
    [
        ("скан.pdf", blank_pdf(), "нет текстового слоя"),
        ("закрыто.pdf", blank_pdf("пароль"), "зашифрован"),
        ("битый.docx", b"PK\x03\x04\x14\x00 broken", "повреждён"),
        ("старый.doc", b"\xd0\xcf\x11\xe0" + b"\x00" * 64, "Сохраните документ как .docx"),
        ("пусто.html", b"   ", "пуст"),
        ("письмо.html", "<p>Привет, судьи! Номеров тут нет.</p>".encode(), "ни одного пронумерованного"),
        ("большой.txt", b"211.1. " + b"x" * (6 * 1024 * 1024), "больше 5 МБ"),
    ],
)
def test_a_bad_file_on_the_page_names_itself_and_keeps_everything(
    rules_store: Path, name: str, data: bytes, needle: str
) -> None:
    at = upload(open_rules(), "good.txt", RULES.replace("9.9", "9.5").encode())
    vid = at.query_params.get("v")
    before = sorted(p.name for p in rules_store.iterdir())
    at = upload(at, name, data)
    assert not at.exception, at.exception
    message = at.error[0].value.replace("\\", "")
    assert needle in message and name in message and "Остались прежние правила: РП 9.5" in message
    assert at.query_params.get("v") == vid  # this window still reads the good upload
    assert sorted(p.name for p in rules_store.iterdir()) == before  # the store is untouched
