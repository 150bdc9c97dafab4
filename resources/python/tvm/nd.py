"""tvm.nd: n-dimensional arrays for built functions, as TVM's `tvm.nd` on the CPU.

An NDArray owns a C-contiguous numpy array (numpy is imported on first use, so `import tvm`
works without it); `tvm.build`'s functions read and write it in place. `tvm.nd.array(np_array)`
copies, as in TVM; `.numpy()` (and the older `.asnumpy()`) returns a copy.
"""

from ._placeholder import missing as _missing
from .error import TVMError


def _numpy():
    try:
        import numpy
    except ImportError as err:  # pragma: no cover - depends on the installation
        raise TVMError("tvm.nd needs numpy (Debian: apt-get install python3-numpy)") from err
    return numpy


class Device:
    """A device; Boundscope builds for the CPU only (`tvm.cpu(0)`)."""

    device_type = 1  # kDLCPU

    def __init__(self, device_id=0):
        if not isinstance(device_id, int) or device_id < 0:
            raise TVMError("device id must be a non-negative int, got %r" % (device_id,))
        self.device_id = device_id

    exist = True

    def __eq__(self, other):
        return isinstance(other, Device) and other.device_id == self.device_id

    def __hash__(self):
        return hash(("cpu", self.device_id))

    def __repr__(self):
        return "cpu(%d)" % self.device_id


def cpu(dev_id=0):
    """tvm.cpu(0): the host CPU."""
    return Device(dev_id)


def device(dev_type, dev_id=0):
    """tvm.device("cpu", 0); other device kinds are not available to tvm.build here."""
    if dev_type in ("cpu", "llvm", 1):
        return Device(dev_id)
    raise TVMError("device %r is not available: Boundscope's tvm.build targets the CPU "
                   "(llvm); use `boundscope run --target cuda` for the GPU" % (dev_type,))


class NDArray:
    """An array on the CPU: `.shape`, `.dtype`, `.device`, `.numpy()`, `.copyfrom()`."""

    def __init__(self, array, dev):
        self._array = array
        self.device = dev

    @property
    def shape(self):
        return tuple(self._array.shape)

    @property
    def dtype(self):
        return str(self._array.dtype)

    @property
    def ndim(self):
        return self._array.ndim

    @property
    def size(self):
        return self._array.size

    def numpy(self):
        """A numpy copy of the contents."""
        return self._array.copy()

    asnumpy = numpy

    def copyfrom(self, source):
        """Copies `source` (an NDArray or array-like of the same shape) into this array."""
        np = _numpy()
        values = source._array if isinstance(source, NDArray) else np.asarray(source)
        if tuple(values.shape) != self.shape:
            raise ValueError("array shape do not match the shape of NDArray %s vs %s"
                             % (tuple(values.shape), self.shape))
        np.copyto(self._array, values, casting="same_kind")
        return self

    def copyto(self, target):
        """Copies into another NDArray, or to a new one on `target` (a Device)."""
        if isinstance(target, NDArray):
            return target.copyfrom(self)
        if isinstance(target, Device):
            return NDArray(self._array.copy(), target)
        raise TVMError("copyto expects an NDArray or a Device, got %s" % type(target).__name__)

    def __array__(self, dtype=None):
        return self._array if dtype is None else self._array.astype(dtype)

    def __repr__(self):
        return "<tvm.nd.NDArray shape=%s, %s>\n%r" % (self.shape, self.device, self._array)


def array(arr, device=None, dtype=None):  # noqa: A002 - TVM's name
    """tvm.nd.array(source): a copy of `source` (numpy array, NDArray or nested lists)."""
    np = _numpy()
    if isinstance(arr, NDArray):
        arr = arr._array
    return NDArray(np.array(arr, dtype=dtype, order="C", copy=True), device or cpu(0))


def empty(shape, dtype="float32", device=None):  # noqa: A002 - TVM's name
    """tvm.nd.empty(shape, dtype): an uninitialised array."""
    np = _numpy()
    if isinstance(shape, int):
        shape = (shape,)
    try:
        shape = tuple(int(s) for s in shape)
    except (TypeError, ValueError) as err:
        raise TVMError("tvm.nd.empty: shape must be a tuple of ints, got %r" % (shape,)) from err
    try:
        element = np.dtype(dtype)
    except TypeError as err:
        raise TVMError("tvm.nd.empty: unknown dtype %r" % (dtype,)) from err
    return NDArray(np.empty(shape, dtype=element), device or cpu(0))


__getattr__ = _missing("tvm.nd")
