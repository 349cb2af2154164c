"""tanbo.load and Game.save on paths that are not game files: a FIFO (refused at once, never
waited on), a device, a folder, a sparse file over the size limit, a NUL in the name, a huge
name (quoted short). Run by CTest (python.module) with the module built."""
import os

import pytest

import tanbo


def refusal(path):
    with pytest.raises(ValueError) as e:
        tanbo.load(path)
    return str(e.value)


def test_load_refuses_what_is_not_a_regular_file(tmp_path):
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    # Without the input layer this call waits forever for a writer.
    assert "is not a regular file (a FIFO)" in refusal(fifo)
    assert "is not a regular file (a character device)" in refusal("/dev/zero")
    assert refusal(str(tmp_path)) == str(tmp_path) + ": is a directory, not a file"


def test_load_refuses_a_file_over_the_limit_before_reading_it(tmp_path):
    sparse = tmp_path / "sparse.tanbo"
    with open(sparse, "wb") as f:
        f.truncate(2 << 30)
    assert "has 2147483648 bytes, over the 64 MB limit for game files" in refusal(str(sparse))


def test_file_names_in_messages_are_short_and_escaped(tmp_path):
    assert len(refusal("a" * 200000 + ".tanbo")) < 200
    assert refusal("a.sgf\0.tanbo") == '"a.sgf\\0.tanbo": a file name cannot hold a NUL byte'
    game = tanbo.Game("grid 5x5")
    with pytest.raises(ValueError) as e:
        game.save(str(tmp_path / "a.sgf\0.tanbo"))
    assert "a file name cannot hold a NUL byte" in str(e.value)
    assert len(str(e.value)) < 200
    assert os.listdir(tmp_path) == []
