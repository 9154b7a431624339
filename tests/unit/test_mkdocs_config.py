"""MkDocs' findings on the base configuration are kept by the texts of its files: an
edit is seen at the next load of the preview, though the findings are kept."""

from __future__ import annotations

from pathlib import Path

from validator.content import mkdocs_config
from validator.derived import Kept


def test_an_edited_configuration_is_checked_again(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: Book\n", encoding="utf-8")

    def problems() -> list[str]:
        return [problem.message for problem in
                mkdocs_config.mkdocs_problems(config, "mkdocs.yml", tmp_path / "docs", tmp_path)]

    with Kept().current() as kept:
        assert problems() == [] and problems() == []
        assert kept.sizes()["_loaded_problems"] == 1
        config.write_text("site_name: Book\nnot_an_option: 1\n", encoding="utf-8")
        assert any("not_an_option" in message for message in problems())
        config.write_text("site_name: Book\n", encoding="utf-8")
        assert problems() == []
