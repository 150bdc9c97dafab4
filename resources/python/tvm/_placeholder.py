"""Names of TVM's API that Boundscope does not offer yet fail with one clear message."""


def missing(module_name):
    """A module-level `__getattr__` (PEP 562) for `module_name`'s names not available yet."""

    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError("module '%s' has no attribute '%s' (not available in Boundscope yet)"
                             % (module_name, name))

    return __getattr__
