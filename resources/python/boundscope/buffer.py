"""tvm.tir.Buffer and tvm.tir.decl_buffer: a named region of memory with a shape, reached through
its `data` handle. An extern stage reads and writes its inputs and outputs through buffers
(`te.extern`), and `tvm.tir.call_packed` passes a buffer to a packed function as an array.
"""

import _boundscope as _core


def _as_list(value):
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    try:
        return list(value)
    except TypeError:
        return [value]


class Buffer:
    """tvm.tir.Buffer: `name`, `data` (a handle Var), `dtype`, `shape`, `strides` (empty:
    row-major), `elem_offset`, `offset_factor`, `data_alignment`, `scope()`."""

    def __init__(self, data, dtype, shape, strides, elem_offset, name, scope, data_alignment,
                 offset_factor):
        self.data = data
        self.dtype = dtype
        self.shape = list(shape)
        self.strides = list(strides)
        self.elem_offset = elem_offset
        self.name = name
        self._scope = scope
        self.data_alignment = data_alignment
        self.offset_factor = offset_factor

    def scope(self):
        """The storage scope ('' is global)."""
        return self._scope

    def offset_of(self, indices):
        """The flat element index of `indices` (row-major, or by the strides), plus the
        element offset."""
        indices = _as_list(indices)
        if len(indices) != len(self.shape):
            raise ValueError("buffer %s has %d dimensions, indexed with %d"
                             % (self.name, len(self.shape), len(indices)))
        if self.strides:
            offset = 0
            for index, stride in zip(indices, self.strides):
                offset = offset + index * stride
        else:
            offset = 0
            for k, index in enumerate(indices):
                offset = index if k == 0 else offset * self.shape[k] + index
        if not (isinstance(self.elem_offset, int) and self.elem_offset == 0):
            offset = offset + self.elem_offset
        return offset

    def vload(self, begin, dtype=None):
        """The element at `begin` (a list of indices), as a load of `data`."""
        return _core._make_load(dtype or self.dtype, self.data, self.offset_of(begin))

    def vstore(self, begin, value):
        """A statement that stores `value` at `begin`."""
        return _core.Store(self.data, value, self.offset_of(begin))

    def access_ptr(self, access_mask, ptr_type="handle", content_lanes=1, offset=0, extent=None):
        """A pointer into the buffer for a C function (TVM's tvm_access_ptr): `access_mask` is
        "r", "w", "rw" (or the bits 1 = read, 2 = write), the pointer starts `offset` elements
        past the buffer's element offset and covers `extent` elements (default: the rest)."""
        if isinstance(access_mask, str):
            mask = 0
            for c in access_mask:
                if c == "r":
                    mask |= 1
                elif c == "w":
                    mask |= 2
                else:
                    raise ValueError("Unknown access_mask %s" % access_mask)
            access_mask = mask
        if content_lanes != 1:
            raise ValueError("access_ptr: content_lanes other than 1 are not supported yet")
        if extent is None:
            if not self.shape:
                extent = 1
            elif self.strides:
                extent = self.strides[0] * self.shape[0] - offset
            else:
                extent = 1
                for dim in self.shape:
                    extent = extent * dim
                extent = extent - offset
        elem_offset = self.elem_offset
        if not (isinstance(offset, int) and offset == 0):
            elem_offset = elem_offset + offset
        annotation = _core._make_call(self.dtype, "type_annotation", [], "intrinsic")
        args = [annotation, self.data, elem_offset, extent, _core.const(access_mask, "int32")]
        return _core._make_call(str(ptr_type), "tvm_access_ptr", args, "intrinsic")

    def _node(self):
        """The engine's buffer node (what a tensor intrinsic binds to a tensor's region)."""
        node = self.__dict__.get("_engine_node")
        if node is None:
            node = _core._make_buffer(self.name, self.data, self.dtype, list(self.shape),
                                      list(self.strides), self.elem_offset, self._scope,
                                      int(self.offset_factor))
            self._engine_node = node
        return node

    def __repr__(self):
        return "buffer(%s, %s)" % (self.name, self.dtype)


def decl_buffer(shape, dtype=None, name="buffer", data=None, strides=None, elem_offset=None,
                scope="", data_alignment=-1, offset_factor=0, buffer_type="",
                axis_separators=None, span=None):
    """tvm.tir.decl_buffer(shape, dtype="float32", name="buffer", ...): as TVM, the data handle
    is a new Var named after the buffer unless given, and the element offset is 0, or a new
    Var when `offset_factor` is not 0."""
    del buffer_type, axis_separators, span
    shape = _as_list(shape)
    dtype = dtype or "float32"
    if data is None:
        data = _core.Var(name, "handle")
    if elem_offset is None:
        elem_offset = _core.Var(name + "_elem_offset", "int32") if offset_factor else 0
    if data_alignment < 0:
        data_alignment = 64
    return Buffer(data, str(dtype), shape, _as_list(strides), elem_offset, name, scope,
                  data_alignment, offset_factor)


def pack_buffer(buf):
    """A buffer as a packed function's array argument (tvm_stack_make_array)."""
    shape = _core._make_call("handle", "tvm_stack_make_shape", list(buf.shape), "intrinsic")
    strides = (_core._make_call("handle", "tvm_stack_make_shape", list(buf.strides), "intrinsic")
               if buf.strides else 0)
    args = [buf.data, shape, strides, len(buf.shape), _core.const(0, buf.dtype), buf.elem_offset]
    return _core._make_call("handle", "tvm_stack_make_array", args, "intrinsic")


def call_packed(*args, span=None):
    """tvm.tir.call_packed("name", args...): calls the packed function registered under
    `name` (tvm.register_func), each Buffer argument passed as an array (a tvm.nd.NDArray in a
    Python function)."""
    del span
    if not args or not isinstance(args[0], str):
        raise ValueError("call_packed: the first argument is the function's name")
    packed = [pack_buffer(a) if isinstance(a, Buffer) else a for a in args]
    return _core._make_call("int32", "tvm_call_packed", packed, "intrinsic")


def call_extern(dtype, func_name, *args, span=None):
    """tvm.tir.call_extern(dtype, "name", args...): a call of a C function."""
    del span
    return _core._make_call(str(dtype), func_name, list(args), "extern")


def call_pure_extern(dtype, func_name, *args, span=None):
    """tvm.tir.call_pure_extern: a side-effect-free C function (a math function)."""
    del span
    return _core._make_call(str(dtype), func_name, list(args), "pure_extern")


def call_intrin(dtype, func_name, *args, span=None):
    """tvm.tir.call_intrin(dtype, "tir.name", args...): a call of an operator, built in (te's
    math functions are the same calls as tvm.te.exp builds) or registered with
    tvm.ir.register_op_attr."""
    del span
    from .intrin import MATH_FUNCTIONS, is_registered
    op_name = func_name if func_name.startswith("tir.") else "tir." + func_name
    if not is_registered(op_name):
        raise _core.TVMError("call_intrin: operator %s is not registered (register it with "
                             "tvm.ir.register_op_attr)" % op_name)
    name = op_name[4:]
    kind = "pure_extern" if name in MATH_FUNCTIONS else "intrinsic"
    return _core._make_call(str(dtype), name, list(args), kind)


def _from_fields(fields):
    name, data, dtype, shape, strides, elem_offset, scope = fields
    return Buffer(data, dtype, list(shape), list(strides), elem_offset, name, scope, 64, 0)


def _extern_placeholders(which):
    return property(lambda op: [_from_fields(f) for f in getattr(op, which)])


# TVM's ExternOp fields: the buffers its body reads and writes.
_core.ExternOp.input_placeholders = _extern_placeholders("_input_buffers")
_core.ExternOp.output_placeholders = _extern_placeholders("_output_buffers")
