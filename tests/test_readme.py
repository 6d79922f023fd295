"""The README stays short, and no relative link in it or in docs/ points at nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
# [text](target) and ![alt](target), with an optional "title" after the target
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)  # http:, https:, mailto: ...
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def prose(page: Path) -> str:
    """The page's text without its fenced code blocks."""
    return FENCE.sub("", page.read_text(encoding="utf-8"))


def relative_links(page: Path) -> list[str]:
    """The relative link targets of a Markdown page, outside code blocks and code spans."""
    targets = [match.group(1) for match in LINK.finditer(CODE_SPAN.sub("", prose(page)))]
    return [t for t in targets if not EXTERNAL.match(t)]


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the page's headings (lower case, punctuation dropped)."""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(prose(page)):
        slug = re.sub(r"[^\w\- ]", "", heading.replace("`", "").lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def test_the_readme_is_at_most_300_lines() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines; move a section into docs/"


def test_the_link_finder_sees_links_and_skips_code() -> None:
    text = (
        "See [the design](docs/design.md#rules), ![a picture](docs/images/x.png) and "
        "[a site](https://example.org).\n`[not](a-link.md)`\n```\n[nor](this.md)\n```\n"
    )
    targets = [m.group(1) for m in LINK.finditer(CODE_SPAN.sub("", FENCE.sub("", text)))]
    assert targets == ["docs/design.md#rules", "docs/images/x.png", "https://example.org"]


def test_headings_get_github_anchors(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n## 11. The plan judge: on, off\n\n## `cogtree eval`\n\n## Title\n")
    assert anchors(page) == {"title", "11-the-plan-judge-on-off", "cogtree-eval", "title-1"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_to_a_file_that_exists(page: Path) -> None:
    missing = []
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists() or (
            anchor and linked.suffix == ".md" and anchor not in anchors(linked)
        ):
            missing.append(target)
    assert not missing, f"{page.relative_to(ROOT)} links to missing files or headings: {missing}"


def test_the_readme_links_into_docs() -> None:
    linked = {t.partition("#")[0] for t in relative_links(README)}
    assert {"docs/design.md", "docs/authoring_trees.md", "docs/viewer.md", "docs/ros.md"} <= linked
