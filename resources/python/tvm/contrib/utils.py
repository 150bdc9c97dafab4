"""tvm.contrib.utils: temporary directories, as TVM's (`tempdir().relpath("f.o")`)."""

import os
import shutil
import tempfile


class TempDirectory:
    """A temporary directory, removed with the object (or by `remove()`)."""

    def __init__(self, custom_path=None, keep_for_debug=False):
        if custom_path:
            # As TVM: a new directory (FileExistsError for one that exists, which removing the
            # temporary directory would delete).
            os.mkdir(custom_path)
            self.temp_dir = custom_path
        else:
            self.temp_dir = tempfile.mkdtemp(prefix="tvm_")
        self._keep = bool(keep_for_debug)

    def relpath(self, name):
        """The path of `name` inside the directory."""
        return os.path.join(self.temp_dir, name)

    def listdir(self):
        """The names of the files in the directory."""
        return os.listdir(self.temp_dir)

    def remove(self):
        if self.temp_dir and not self._keep:
            shutil.rmtree(self.temp_dir, ignore_errors=True)
            self.temp_dir = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()

    def __del__(self):
        try:
            self.remove()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass

    def __repr__(self):
        return "TempDirectory(%r)" % self.temp_dir


def tempdir(custom_path=None, keep_for_debug=None):
    """A new temporary directory."""
    return TempDirectory(custom_path, keep_for_debug)
