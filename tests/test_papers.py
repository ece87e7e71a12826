"""The paper library's storage (citecheck.papers): adding papers with printed page numbers,
reading them back, and a folder that a failed or killed add leaves as it was."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from citecheck import Location
from citecheck.errors import CitecheckError, LocationKindError, SavedIndexError
from citecheck.papers import PaperFileError, PaperLibrary, UnknownPaperError
from citecheck.papers import store as store_module
from pdfs import make_pdf

DATA = Path(__file__).parents[1] / ".." / "shared" / "data" / "pages"

MARKED = (
    "Front matter before any page.\n"
    "[PAGE:208]\n"
    "# Methods\n\n"
    "We measured the effect of sleep on memory in forty adults. The effect was\n"
    "[PAGE:209]\n"
    "large and lasted a week.\n\n"
    "## Results\n\n"
    "Participants who slept recalled more words than those who stayed awake.\n"
)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its content: what "left exactly as it was" compares."""
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.fixture
def library(tmp_path: Path) -> PaperLibrary:
    return PaperLibrary(tmp_path / "library", embedder=None)


def write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    return path


# -- text with pages -------------------------------------------------------------------------


def test_a_markdown_paper_with_page_markers(library: PaperLibrary, tmp_path: Path) -> None:
    key = library.add(write(tmp_path / "smith2020.md", MARKED))
    assert key == "smith2020"
    assert library.keys() == ["smith2020"]
    assert "smith2020" in library
    assert len(library) == 1
    meta = library.metadata(key)
    assert (meta.file, meta.format, meta.page_labels) == (
        "smith2020.md",
        "markdown",
        ("208", "209"),
    )
    assert meta.has_text
    assert len(meta.sha256 or "") == 64

    pages = library.pages(key)
    assert [(p.index, p.label, p.number) for p in pages] == [(0, "208", 208), (1, "209", 209)]
    text = library.text(key)
    assert all(p.text == text[p.start : p.end] for p in pages)
    assert "large and lasted a week." in pages[1].text

    document = library.document(key)
    span = document.resolve(Location.parse("p. 209"))
    assert "Participants who slept" in document.text[span.start : span.end]
    assert document.resolve(Location.parse("sec-results")).start == text.index("## Results")


def test_chunks_know_their_pages_and_sections(library: PaperLibrary, tmp_path: Path) -> None:
    key = library.add(write(tmp_path / "smith2020.md", MARKED))
    chunks = library.chunks(key)
    text = library.text(key)
    assert all(0 <= c.start < c.end <= len(text) for c in chunks)
    assert all("[PAGE" not in c.text for c in chunks)  # markers are no part of any sentence
    crossing = next(c for c in chunks if "The effect was large" in c.text)
    assert (crossing.page_start, crossing.page_end, crossing.section) == (208, 209, "Methods")
    assert text[crossing.start : crossing.end].startswith("The effect was")
    assert text[crossing.start : crossing.end].endswith("lasted a week.")
    result = next(c for c in chunks if "recalled more words" in c.text)
    assert (result.page_start, result.page_end, result.section) == (209, 209, "Results")


def test_form_feeds_are_pages_from_one(library: PaperLibrary, tmp_path: Path) -> None:
    text = (
        "First page says hello there.\fSecond page says goodbye now.\fThe third page is last here."
    )
    key = library.add(write(tmp_path / "notes.txt", text))
    assert [p.number for p in library.pages(key)] == [1, 2, 3]
    assert library.metadata(key).format == "text"
    chunk = next(c for c in library.chunks(key) if "goodbye" in c.text)
    assert chunk.page_start == chunk.page_end == 2
    document = library.document(key)
    span = document.resolve("p2")
    assert document.text[span.start : span.end] == "Second page says goodbye now."


def test_a_given_key_wins(library: PaperLibrary, tmp_path: Path) -> None:
    assert library.add(write(tmp_path / "x.md", MARKED), key="doe:2021") == "doe:2021"
    assert library.keys() == ["doe:2021"]
    assert library.pages("doe:2021")[0].label == "208"


def test_reopening_reads_the_manifest_only(tmp_path: Path) -> None:
    folder = tmp_path / "library"
    first = PaperLibrary(folder, embedder=None)
    key = first.add(write(tmp_path / "smith2020.md", MARKED))
    expected = (first.metadata(key), first.pages(key), first.chunks(key))

    again = PaperLibrary(folder, embedder=None)
    assert again.keys() == [key]
    assert (again.metadata(key), again.pages(key), again.chunks(key)) == expected

    # Per-paper files are read when first asked for, and checked then: a damaged one does not
    # stop the library from opening, and is named when its paper is read.
    stored = store_module.Store(folder).read()[key].files["chunks"]
    (folder / "papers" / stored.name).write_bytes(b"{}\n")
    lazy = PaperLibrary(folder, embedder=None)
    assert lazy.metadata(key) == expected[0]
    assert lazy.pages(key) == expected[1]
    with pytest.raises(SavedIndexError, match=stored.name):
        lazy.chunks(key)


# -- re-adding ------------------------------------------------------------------------------


def test_an_unchanged_file_is_a_no_op(library: PaperLibrary, tmp_path: Path) -> None:
    file = write(tmp_path / "smith2020.md", MARKED)
    library.add(file)
    before = snapshot(library.path)
    assert library.add(file) == "smith2020"
    assert snapshot(library.path) == before


def test_a_changed_file_replaces_only_that_paper(library: PaperLibrary, tmp_path: Path) -> None:
    file = write(tmp_path / "smith2020.md", MARKED)
    library.add(file)
    library.add(write(tmp_path / "other.txt", "Other paper.\fIts second page here."))
    other = store_module.Store(library.path).read()["other"]
    old = store_module.Store(library.path).read()["smith2020"]

    write(file, MARKED.replace("forty adults", "fifty adults"))
    assert library.add(file) == "smith2020"
    now = store_module.Store(library.path).read()
    assert now["other"] == other
    assert now["smith2020"].metadata.sha256 != old.metadata.sha256
    assert "fifty adults" in library.text("smith2020")
    names = {p.name for p in (library.path / "papers").iterdir()}
    assert not names & {s.name for s in old.files.values()}  # the old files are gone
    assert names == {s.name for e in now.values() for s in e.files.values()}


def test_remove(library: PaperLibrary, tmp_path: Path) -> None:
    library.add(write(tmp_path / "a.txt", "Page one of a.\fPage two of a."))
    library.add(write(tmp_path / "b.txt", "Page one of b.\fPage two of b."))
    library.remove("a")
    assert library.keys() == ["b"]
    assert PaperLibrary(library.path, embedder=None).keys() == ["b"]
    assert all(p.name.startswith("b.") for p in (library.path / "papers").iterdir())
    with pytest.raises(UnknownPaperError, match="'a'") as caught:
        library.pages("a")
    assert isinstance(caught.value, LookupError)
    with pytest.raises(UnknownPaperError):
        library.remove("a")


# -- bad input leaves the library as it was ---------------------------------------------------


def bad_add(library: PaperLibrary, file: Path, *needles: str) -> PaperFileError:
    """Add ``file`` to a library holding one paper; the add must fail with a PaperFileError
    naming the file and the needles, and leave every file of the library as it was."""
    before = snapshot(library.path)
    with pytest.raises(PaperFileError) as caught:
        library.add(file)
    message = str(caught.value)
    assert str(file) in message
    assert caught.value.path == str(file)
    for needle in needles:
        assert needle in message
    assert "not supported" not in message
    assert isinstance(caught.value, CitecheckError)
    assert snapshot(library.path) == before
    assert library.keys() == ["smith2020"]
    assert PaperLibrary(library.path, embedder=None).pages("smith2020")[0].label == "208"
    return caught.value


@pytest.fixture
def holding_one(library: PaperLibrary, tmp_path: Path) -> PaperLibrary:
    library.add(write(tmp_path / "smith2020.md", MARKED))
    return library


def test_text_that_is_not_utf8_is_refused(holding_one: PaperLibrary, tmp_path: Path) -> None:
    bad_add(
        holding_one, write(tmp_path / "latin.txt", "Caf\xe9 au lait".encode("latin-1")), "UTF-8"
    )
    bad_add(holding_one, write(tmp_path / "binary.txt", b"\x00\x01\x02binary"), "not a text file")
    bad_add(holding_one, write(tmp_path / "empty.md", "  \n"), "no text")
    bad_add(holding_one, tmp_path / "missing.md", "no such file")


def test_json_that_is_not_docling_is_refused(holding_one: PaperLibrary, tmp_path: Path) -> None:
    bad_add(holding_one, write(tmp_path / "x.json", "{not json"), "not valid JSON")
    bad_add(holding_one, write(tmp_path / "y.json", '{"a": 1}'), "not a docling document")


def test_a_broken_pdf_is_refused(holding_one: PaperLibrary, tmp_path: Path) -> None:
    pytest.importorskip("pypdf")
    bad_add(holding_one, write(tmp_path / "broken.pdf", b"%PDF-1.4 garbage"), "not a readable PDF")
    truncated = make_pdf(["Some words here."])[:200]
    bad_add(holding_one, write(tmp_path / "truncated.pdf", truncated), "not a readable PDF")


def test_a_pdf_without_text_has_no_text_layer(holding_one: PaperLibrary, tmp_path: Path) -> None:
    pytest.importorskip("pypdf")
    bad_add(holding_one, write(tmp_path / "scan.pdf", make_pdf(["", ""])), "no text layer")


def test_an_encrypted_pdf_is_refused(holding_one: PaperLibrary, tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    writer = pypdf.PdfWriter(clone_from=io.BytesIO(make_pdf(["Secret words here."])))
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    bad_add(holding_one, write(tmp_path / "locked.pdf", out.getvalue()), "encrypted", "password")


def test_a_pdf_restricted_without_a_password_is_read(library: PaperLibrary, tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    writer = pypdf.PdfWriter(clone_from=io.BytesIO(make_pdf(["Open words here."])))
    writer.encrypt(user_password="", owner_password="owner", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    key = library.add(write(tmp_path / "open.pdf", out.getvalue()))
    assert "Open words here." in library.pages(key)[0].text


# -- PDF ------------------------------------------------------------------------------------


def test_a_pdf_keeps_its_printed_page_labels(library: PaperLibrary, tmp_path: Path) -> None:
    pytest.importorskip("pypdf")
    labels = "/PageLabels << /Nums [0 << /S /r >> 1 << /S /D /St 12 >>] >>"
    pages = ["Preface words of the book.", "Chapter one says this.", "Chapter two says that."]
    pdf = make_pdf(pages, labels)
    key = library.add(write(tmp_path / "book.pdf", pdf))
    pages = library.pages(key)
    assert [(p.index, p.label, p.number) for p in pages] == [
        (0, "i", None),
        (1, "12", 12),
        (2, "13", 13),
    ]
    assert library.metadata(key).page_labels == ("i", "12", "13")
    assert library.metadata(key).format == "pdf"
    document = library.document(key)
    span = document.resolve(Location.parse("p. 13"))
    assert document.text[span.start : span.end].strip() == "Chapter two says that."
    chunk = next(c for c in library.chunks(key) if "Chapter one" in c.text)
    assert chunk.page_start == 12


# -- bibliographies -------------------------------------------------------------------------

BIB = """@article{smith2020,
  author = {Smith, John and van der Berg, Anna},
  title = {Sleep and {Memory}},
  year = {2020},
  file = {papers/smith.md}
}

@book{jones2019,
  author = {Jones, Mary},
  title = {A Book Without a File},
  year = {2019}
}

@misc{lost2018,
  author = {Lost, Lee},
  title = {Gone},
  year = {2018},
  file = {papers/gone.pdf}
}
"""


def test_a_bibtex_bibliography_with_file_fields(library: PaperLibrary, tmp_path: Path) -> None:
    pytest.importorskip("bibtexparser")
    write(tmp_path / "papers" / "smith.md", MARKED)
    result = library.add_bibliography(write(tmp_path / "refs.bib", BIB))
    assert result.keys == ("smith2020", "jones2019", "lost2018")
    assert result.added == ("smith2020",)
    assert any("jones2019" in w and "no file" in w for w in result.warnings)
    assert any("lost2018" in w and "no such file" in w for w in result.warnings)

    assert library.keys() == ["smith2020", "jones2019", "lost2018"]
    meta = library.metadata("smith2020")
    assert (meta.title, meta.authors, meta.year) == (
        "Sleep and Memory",
        ("Smith", "van der Berg"),
        "2020",
    )
    assert meta.file == "smith.md"
    assert meta.page_labels == ("208", "209")
    assert library.pages("smith2020")[1].number == 209

    jones = library.metadata("jones2019")
    assert (jones.title, jones.has_text, library.pages("jones2019")) == (
        "A Book Without a File",
        False,
        [],
    )
    assert library.chunks("jones2019") == []
    with pytest.raises(LocationKindError):  # no pages: a page of it cannot be checked
        library.document("jones2019").resolve("p. 3")

    # The file the bibliography named is recognised as the entry's paper, unchanged.
    assert library.add(tmp_path / "papers" / "smith.md") == "smith2020"  # unchanged
    again = PaperLibrary(library.path, embedder=None)
    assert again.metadata("smith2020") == meta
    # Adding the bibliography again changes nothing it already holds.
    before = snapshot(library.path)
    assert library.add_bibliography(tmp_path / "refs.bib").added == ()
    assert snapshot(library.path) == before


def test_a_file_named_by_the_bibliography_takes_its_key(
    library: PaperLibrary, tmp_path: Path
) -> None:
    pytest.importorskip("bibtexparser")
    bib = BIB.replace("papers/smith.md", "papers/later.txt")
    library.add_bibliography(write(tmp_path / "refs.bib", bib))
    assert not library.metadata("smith2020").has_text
    key = library.add(write(tmp_path / "papers" / "later.txt", "Later text.\fPage two text."))
    assert key == "smith2020"
    assert library.metadata(key).title == "Sleep and Memory"
    assert [p.number for p in library.pages(key)] == [1, 2]


def test_a_csl_json_bibliography(library: PaperLibrary, tmp_path: Path) -> None:
    write(tmp_path / "smith.md", MARKED)
    items = [
        {
            "id": "smith2020",
            "title": "Sleep and Memory",
            "author": [{"family": "Smith", "given": "John"}],
            "issued": {"date-parts": [[2020, 5]]},
            "file": "smith.md",
        },
        {"id": "jones2019", "title": "No File", "author": [{"family": "Jones"}]},
    ]
    result = library.add_bibliography(write(tmp_path / "refs.json", json.dumps(items)))
    assert result.added == ("smith2020",)
    meta = library.metadata("smith2020")
    assert (meta.title, meta.authors, meta.year) == ("Sleep and Memory", ("Smith",), "2020")
    assert library.pages("smith2020")[0].label == "208"
    assert library.metadata("jones2019").authors == ("Jones",)


def test_a_bibliography_file_that_cannot_be_read_is_a_warning(
    library: PaperLibrary, tmp_path: Path
) -> None:
    write(tmp_path / "scan.txt", b"\x00\x00binary")
    items = [{"id": "scan", "title": "Scan", "file": "scan.txt"}]
    result = library.add_bibliography(write(tmp_path / "refs.json", json.dumps(items)))
    assert result.added == ()
    assert any("scan" in w and "not a text file" in w for w in result.warnings)
    assert library.keys() == ["scan"]
    assert library.pages("scan") == []


def test_a_key_twice_is_an_error_naming_both(holding_one: PaperLibrary, tmp_path: Path) -> None:
    before = snapshot(holding_one.path)
    items = [{"id": "k", "title": "First"}, {"id": "k", "title": "Second"}]
    with pytest.raises(PaperFileError, match=r"'k' is used twice.*item 0 \('First'\).*item 1"):
        holding_one.add_bibliography(write(tmp_path / "refs.json", json.dumps(items)))
    pytest.importorskip("bibtexparser")
    bib = BIB + "\n@article{jones2019,\n  title = {Again},\n  year = {2001}\n}\n"
    with pytest.raises(PaperFileError, match=r"'jones2019' is used twice.*line 8.*line 21"):
        holding_one.add_bibliography(write(tmp_path / "refs.bib", bib))
    assert snapshot(holding_one.path) == before


# -- crash safety ---------------------------------------------------------------------------


def test_an_add_failing_before_its_commit_leaves_the_old_library(
    holding_one: PaperLibrary, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = snapshot(holding_one.path)

    def die(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt("killed while committing")

    monkeypatch.setattr(store_module, "write_bytes_atomic", die)
    with pytest.raises(KeyboardInterrupt):
        holding_one.add(write(tmp_path / "new.txt", "New paper.\fSecond page."))
    with pytest.raises(KeyboardInterrupt):
        holding_one.add(write(tmp_path / "smith2020.md", MARKED + "\nA changed ending.\n"))
    assert snapshot(holding_one.path) == before  # the new files were removed
    assert holding_one.keys() == ["smith2020"]
    reopened = PaperLibrary(holding_one.path, embedder=None)
    assert reopened.keys() == ["smith2020"]
    assert "changed ending" not in reopened.text("smith2020")


def test_files_a_killed_add_left_are_ignored_then_removed(
    holding_one: PaperLibrary, tmp_path: Path
) -> None:
    papers = holding_one.path / "papers"
    orphans = [
        write(papers / "new.0123456789abcdef.txt", "half written"),
        write(papers / "new.0123456789abcdef.pages.json", "[{"),
        write(holding_one.path / ".manifest.json.x1y2.tmp", "{"),
    ]
    reopened = PaperLibrary(holding_one.path, embedder=None)
    assert reopened.keys() == ["smith2020"]
    assert reopened.pages("smith2020")[0].number == 208
    reopened.add(write(tmp_path / "b.txt", "Another paper.\fIts page two."))
    assert not any(orphan.exists() for orphan in orphans)
    assert reopened.keys() == ["smith2020", "b"]


def test_a_manifest_of_another_version_is_named(holding_one: PaperLibrary) -> None:
    manifest = holding_one.path / "manifest.json"
    body = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**body, "version": 99}))
    with pytest.raises(SavedIndexError, match="version 99"):
        PaperLibrary(holding_one.path, embedder=None)
    manifest.write_text("[]")
    with pytest.raises(SavedIndexError, match="not a paper library manifest"):
        PaperLibrary(holding_one.path, embedder=None)


def test_importing_the_package_imports_no_optional_dependency() -> None:
    code = (
        "import sys, citecheck, citecheck.papers\n"
        "heavy = {'pypdf', 'bibtexparser', 'numpy', 'torch', 'sentencex'} & set(sys.modules)\n"
        "assert not heavy, heavy\n"
        "bare = 'import sys, citecheck; print(list(sys.modules))'\n"
        "loaded = __import__('subprocess').check_output([sys.executable, '-c', bare], text=True)\n"
        "assert 'citecheck.papers' not in loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# -- real papers (the shared data set; skipped when it is absent) -----------------------------

DOCLING_SENTENCES = [
    ("2206.01062", 3, "As a second condition, we focussed on medium to large documents"),
    ("2206.01062", 5, "which goes beyond visual layout recognition"),
    ("2203.01017v2", 5, "ResNet by default downsamples the image resolution by 32"),
    ("2305.03393v1", 8, "The design of OTSL allows to validate a table structure easily"),
]


@pytest.fixture(scope="module")
def real_library(tmp_path_factory: pytest.TempPathFactory) -> PaperLibrary:
    if not (DATA / "docling").is_dir():
        pytest.skip("the shared data set (../shared/data/pages) is absent")
    library = PaperLibrary(tmp_path_factory.mktemp("real") / "library", embedder=None)
    for name in ("2206.01062", "2203.01017v2", "2305.03393v1"):
        library.add(DATA / "docling" / f"{name}.json")
    return library


@pytest.mark.parametrize(("key", "page", "sentence"), DOCLING_SENTENCES)
def test_docling_papers_keep_their_page_numbers(
    real_library: PaperLibrary, key: str, page: int, sentence: str
) -> None:
    chunk = next(c for c in real_library.chunks(key) if sentence in c.text)
    assert chunk.page_start == page
    document = real_library.document(key)
    span = document.resolve(Location.parse(f"p. {page}"))
    assert sentence in " ".join(document.text[span.start : span.end].split())
    found = real_library.pages(key)[page - 1]
    assert (found.number, found.label) == (page, str(page))
    assert sentence in " ".join(found.text.split())


def test_docling_sections_are_found(real_library: PaperLibrary) -> None:
    chunks = real_library.chunks("2206.01062")
    assert any(c.section == "ABSTRACT" for c in chunks)
    assert real_library.metadata("2206.01062").page_labels == tuple(str(n) for n in range(1, 10))


def test_the_geotopo_notes_are_cited_by_printed_page(tmp_path: Path) -> None:
    pytest.importorskip("pypdf")
    pdf = DATA / "geotopo" / "GeoTopo-komprimiert.pdf"
    if not pdf.is_file():
        pytest.skip("the shared data set (../shared/data/pages) is absent")
    library = PaperLibrary(tmp_path / "library", language="de", embedder=None)
    key = library.add(pdf)
    pages = library.pages(key)
    assert len(pages) == 117
    assert [p.label for p in pages[:4]] == ["i", "ii", "iii", "1"]
    assert pages[0].number is None  # front matter in roman numerals is not cited by number
    printed = [p for p in pages if p.number is not None]
    assert sum(p.number == p.index + 1 - 3 for p in printed) >= 102  # printed = sheet − 3
    eight = next(p for p in pages if p.number == 8)
    assert eight.index == 10
    assert eight.text.startswith("8 1.2. METRISCHE RÄUME")
    caption = "Veranschaulichungen zur Metrik d aus Beispiel 10"
    document = library.document(key)
    at = document.text.index(caption)
    chunk = next(c for c in library.chunks(key) if c.start <= at < c.end)
    assert chunk.page_start is not None
    assert chunk.page_end is not None
    assert chunk.page_start <= 8 <= chunk.page_end
    span = document.resolve(Location.parse("p. 8"))
    assert caption in document.text[span.start : span.end]


def test_one_paper_is_not_added_under_two_keys(holding_one: PaperLibrary, tmp_path: Path) -> None:
    twin = write(tmp_path / "copy.md", (tmp_path / "smith2020.md").read_bytes())
    bad_add(holding_one, twin, "already in the library as 'smith2020'")
    assert holding_one.add(tmp_path / "smith2020.md") == "smith2020"  # its own key: no change
