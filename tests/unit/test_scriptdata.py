"""The data scripts (search index, previews): the same JSON, streamed, never able to
end a script early."""

from __future__ import annotations

import json
from pathlib import Path

from validator.site.scriptdata import write_global


def test_the_script_assigns_the_data_as_json_with_no_script_end(tmp_path: Path) -> None:
    data = {"b": ["</script><script>alert(1)</script>", "ł</", {"</": 1.5}], "a": None, "ś": [True, 2]}
    path = write_global(tmp_path / "data.js", "validatorTest", data, sort_keys=True)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("window.validatorTest=") and text.endswith(";\n")
    assert "</" not in text
    body = text.removeprefix("window.validatorTest=").removesuffix(";\n")
    assert json.loads(body) == data
    assert body == json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).replace("</", "<\\/")
    assert "ł" in text  # kept as UTF-8, not escaped
