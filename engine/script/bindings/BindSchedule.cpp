/// The schedule layer with TVM's names: `te.create_schedule`, `tvm.te.Schedule` (`s[C]`,
/// `s.stages`, `cache_read`, `cache_write`, `rfactor`, `normalize`), `tvm.te.Stage` with every
/// primitive and TVM's keyword arguments, the relations (`Split`, `Fuse`, `Rebase`, `Singleton`),
/// `tvm.te.schedule.InferBound`, the bound trace, and lowering (`tvm.lower`). Schedules created
/// here are recorded as the script's current program (analysis/Program.h).

#include "analysis/Program.h"
#include "ir/Printer.h"
#include "lower/CommonSubexprElim.h"
#include "lower/HoistIfThenElse.h"
#include "lower/InjectDoubleBuffer.h"
#include "lower/InjectPrefetch.h"
#include "lower/LoopAnnotations.h"
#include "lower/Lower.h"
#include "lower/LowerThreadAllreduce.h"
#include "lower/RemoveNoOp.h"
#include "lower/Simplify.h"
#include "lower/ThreadSync.h"
#include "schedule/AutoInline.h"
#include "schedule/Graph.h"
#include "schedule/InferBound.h"
#include "script/bindings/Bindings.h"
#include "script/bindings/CallGuard.h"
#include "script/bindings/Casters.h"
#include "script/bindings/Recording.h"
#include "support/Cancellation.h"
#include "viz/Dot.h"
#include "viz/Layout.h"
#include "viz/ScheduleGraphs.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace bs::script {

namespace {

/// Python views of the relations; `stage.relations` builds one per relation.
struct PySplit {
    IterVarRelation rel;
};
struct PyFuse {
    IterVarRelation rel;
};
struct PyRebase {
    IterVarRelation rel;
};
struct PySingleton {
    IterVarRelation rel;
};

py::object relationObject(const IterVarRelation& rel) {
    switch (rel.kind()) {
    case RelationKind::Split:
        return py::cast(PySplit{rel});
    case RelationKind::Fuse:
        return py::cast(PyFuse{rel});
    case RelationKind::Rebase:
        return py::cast(PyRebase{rel});
    case RelationKind::Singleton:
        return py::cast(PySingleton{rel});
    }
    return py::none();
}

py::object locationObject(const SourceLocation& where) {
    if (!where.known())
        return py::none();
    return py::make_tuple(where.file, where.line);
}

template <typename Wrapper> py::class_<Wrapper> bindRelation(py::module_& m, const char* name) {
    py::class_<Wrapper> cls(m, name);
    cls.def("__str__", [](const Wrapper& w) { return toString(w.rel); })
        .def("__repr__", [](const Wrapper& w) { return toString(w.rel); })
        .def_property_readonly("source_location",
                               [](const Wrapper& w) { return locationObject(w.rel->location); });
    return cls;
}

void bindRelations(py::module_& m) {
    bindRelation<PySplit>(m, "Split")
        .def_property_readonly("parent",
                               [](const PySplit& w) { return w.rel.as<SplitNode>()->parent; })
        .def_property_readonly("outer",
                               [](const PySplit& w) { return w.rel.as<SplitNode>()->outer; })
        .def_property_readonly("inner",
                               [](const PySplit& w) { return w.rel.as<SplitNode>()->inner; })
        .def_property_readonly("factor",
                               [](const PySplit& w) { return w.rel.as<SplitNode>()->factor; })
        .def_property_readonly("nparts",
                               [](const PySplit& w) { return w.rel.as<SplitNode>()->nparts; })
        .def_property_readonly("disable_predication", [](const PySplit& w) {
            return w.rel.as<SplitNode>()->disablePredication;
        });
    bindRelation<PyFuse>(m, "Fuse")
        .def_property_readonly("outer", [](const PyFuse& w) { return w.rel.as<FuseNode>()->outer; })
        .def_property_readonly("inner", [](const PyFuse& w) { return w.rel.as<FuseNode>()->inner; })
        .def_property_readonly("fused",
                               [](const PyFuse& w) { return w.rel.as<FuseNode>()->fused; });
    bindRelation<PyRebase>(m, "Rebase")
        .def_property_readonly("parent",
                               [](const PyRebase& w) { return w.rel.as<RebaseNode>()->parent; })
        .def_property_readonly("rebased",
                               [](const PyRebase& w) { return w.rel.as<RebaseNode>()->rebased; });
    bindRelation<PySingleton>(m, "Singleton")
        .def_property_readonly(
            "iter", [](const PySingleton& w) { return w.rel.as<SingletonNode>()->iter; });
}

Operation opOf(const py::handle& value, const char* what) {
    if (py::isinstance<Tensor>(value))
        return value.cast<Tensor>().op;
    if (py::isinstance<OperationNode>(value))
        return Operation(value.cast<OperationNode*>());
    throw UserError(std::string(what) + " must be a Tensor or an Operation");
}

std::vector<Operation> opList(const py::object& value, const char* what) {
    if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
        std::vector<Operation> ops;
        for (py::handle item : value)
            ops.push_back(opOf(item, what));
        return ops;
    }
    return {opOf(value, what)};
}

std::vector<IterVar> ivList(const py::args& args) {
    std::vector<IterVar> out;
    for (py::handle a : args) {
        if (py::isinstance<py::list>(a) || py::isinstance<py::tuple>(a)) {
            for (py::handle b : a)
                out.push_back(b.cast<IterVar>());
            continue;
        }
        out.push_back(a.cast<IterVar>());
    }
    return out;
}

/// `stage.split(parent, factor=None, nparts=None)`; like TVM's Python Stage.split, a call with
/// both or neither raises ValueError before the engine is asked.
py::object splitStage(const Stage& s, const IterVar& parent, const py::object& factor,
                      const py::object& nparts, bool disablePredication) {
    if (!factor.is_none() && !nparts.is_none())
        throw py::value_error("split of '" + parent->var.name() + "' in stage '" + s.name() +
                              "': give factor or nparts, not both");
    std::pair<IterVar, IterVar> parts;
    if (!factor.is_none())
        parts = s.split(parent, convertExpr(factor, "factor"), disablePredication);
    else if (!nparts.is_none())
        parts = s.splitByNParts(parent, convertExpr(nparts, "nparts"), disablePredication);
    else
        throw py::value_error("split of '" + parent->var.name() + "' in stage '" + s.name() +
                              "': give factor or nparts");
    return py::make_tuple(parts.first, parts.second);
}

/// TVM's IterVarAttr: what vectorize/unroll/parallel/bind/pragma/prefetch set on one IterVar.
void bindIterVarAttr(py::module_& m) {
    py::class_<IterVarAttr>(m, "IterVarAttr")
        .def_property_readonly("iter_type", [](const IterVarAttr& a) { return int(a.iterType); })
        .def_property_readonly("bind_thread", [](const IterVarAttr& a) { return a.bindThread; })
        .def_property_readonly("pragma_keys",
                               [](const IterVarAttr& a) {
                                   std::vector<Expr> keys;
                                   for (const auto& [key, value] : a.pragmas)
                                       keys.push_back(StringImmNode::make(key));
                                   return keys;
                               })
        .def_property_readonly("pragma_values",
                               [](const IterVarAttr& a) {
                                   std::vector<Expr> values;
                                   for (const auto& [key, value] : a.pragmas)
                                       values.push_back(value);
                                   return values;
                               })
        .def_property_readonly("tensor_intrin",
                               [](const IterVarAttr& a) { return wrapNode(a.tensorIntrin.get()); })
        .def_property_readonly("prefetch_data",
                               [](const IterVarAttr& a) {
                                   std::vector<Tensor> data;
                                   for (const auto& [tensor, offset] : a.prefetches)
                                       data.push_back(tensor);
                                   return data;
                               })
        .def_property_readonly("prefetch_offset",
                               [](const IterVarAttr& a) {
                                   std::vector<Expr> offsets;
                                   for (const auto& [tensor, offset] : a.prefetches)
                                       offsets.push_back(offset);
                                   return offsets;
                               })
        .def_property_readonly("dim_align_factor",
                               [](const IterVarAttr& a) { return a.dimAlignFactor; })
        .def_property_readonly("dim_align_offset",
                               [](const IterVarAttr& a) { return a.dimAlignOffset; })
        .def_property_readonly("source_location",
                               [](const IterVarAttr& a) { return locationObject(a.location); });
}

py::dict iterVarAttrs(const Stage& s) {
    py::dict out;
    // In the order of allIterVars, so that printing the map is deterministic.
    for (const IterVar& iv : s->allIterVars)
        if (const IterVarAttr* attr = s.attrOf(iv))
            out[wrapNode(iv.get())] = py::cast(*attr);
    return out;
}

void bindStage(py::module_& m) {
    bindIterVarAttr(m);
    py::class_<Stage>(m, "Stage")
        .def("split", &splitStage, py::arg("parent"), py::arg("factor") = py::none(),
             py::arg("nparts") = py::none(), py::arg("disable_predication") = false, Located())
        .def(
            "fuse", [](const Stage& s, py::args args) { return s.fuse(ivList(args)); }, Located())
        .def(
            "reorder", [](const Stage& s, py::args args) { s.reorder(ivList(args)); }, Located())
        .def(
            "tile",
            [](const Stage& s, const IterVar& x, const IterVar& y, const Expr& xf, const Expr& yf) {
                TileResult t = s.tile(x, y, xf, yf);
                return py::make_tuple(t.xOuter, t.yOuter, t.xInner, t.yInner);
            },
            py::arg("x_parent"), py::arg("y_parent"), py::arg("x_factor"), py::arg("y_factor"),
            Located())
        .def("compute_at", &Stage::computeAt, py::arg("parent"), py::arg("scope"), Located())
        .def("compute_root", &Stage::computeRoot, Located())
        .def("compute_inline", &Stage::computeInline, Located())
        .def("reverse_compute_inline", &reverseComputeInlineFromPython,
             py::arg("schedule") = py::none(), Located())
        .def("bind", &Stage::bind, py::arg("ivar"), py::arg("thread_ivar"), Located())
        .def("set_scope", &Stage::setScope, py::arg("scope"), Located())
        .def("set_store_predicate", &Stage::setStorePredicate, py::arg("predicate"), Located())
        .def("storage_align", &Stage::storageAlign, py::arg("axis"), py::arg("factor"),
             py::arg("offset"), Located())
        .def("double_buffer", &Stage::doubleBuffer, Located())
        .def(
            "tensorize",
            [](const Stage& s, const IterVar& iv, const TensorIntrinNode& intrin) {
                s.tensorize(iv, TensorIntrin(&intrin));
            },
            py::arg("var"), py::arg("tensor_intrin"), Located())
        .def("prefetch", &Stage::prefetch, py::arg("tensor"), py::arg("var"), py::arg("offset"),
             Located())
        .def("vectorize", &Stage::vectorize, py::arg("var"), Located())
        .def("unroll", &Stage::unroll, py::arg("var"), Located())
        .def("parallel", &Stage::parallel, py::arg("var"), Located())
        .def(
            "pragma",
            [](const Stage& s, const IterVar& iv, const std::string& key,
               const std::optional<Expr>& value) { s.pragma(iv, key, value ? *value : Expr()); },
            py::arg("var"), py::arg("pragma_type"), py::arg("pragma_value") = py::none(), Located())
        .def_property_readonly("op", [](const Stage& s) { return wrapNode(s->op.get()); })
        .def_property_readonly("origin_op",
                               [](const Stage& s) { return wrapNode(s->originOp.get()); })
        .def_property_readonly("name", [](const Stage& s) { return s.name(); })
        .def_property_readonly("leaf_iter_vars", [](const Stage& s) { return s->leafIterVars; })
        .def_property_readonly("all_iter_vars", [](const Stage& s) { return s->allIterVars; })
        .def_property_readonly("relations",
                               [](const Stage& s) {
                                   py::list out;
                                   for (const IterVarRelation& r : s->relations)
                                       out.append(relationObject(r));
                                   return out;
                               })
        .def_property_readonly("attach_type", [](const Stage& s) { return int(s->attachType); })
        .def_property_readonly("attach_ivar", [](const Stage& s) { return s->attachIVar; })
        .def_property_readonly("attach_stage",
                               [](const Stage& s) -> py::object {
                                   if (!s->attachStage.defined())
                                       return py::none();
                                   return py::cast(s->attachStage);
                               })
        .def_property_readonly("scope", [](const Stage& s) { return s->scope; })
        .def_property_readonly("is_output", [](const Stage& s) { return s->isOutput; })
        .def_property_readonly("iter_var_attrs", &iterVarAttrs)
        .def_property_readonly("source_location",
                               [](const Stage& s) { return locationObject(s->location); })
        .def_property_readonly("attach_source_location",
                               [](const Stage& s) { return locationObject(s->attachLocation); })
        .def("__eq__",
             [](const Stage& a, py::object b) {
                 return py::isinstance<Stage>(b) && a.same_as(b.cast<Stage>());
             })
        .def("__hash__", [](const Stage& s) { return StageHash()(s); })
        .def_property_readonly("group",
                               [](const Stage& s) -> py::object {
                                   if (!s->group.defined())
                                       return py::none();
                                   return py::cast(s->group);
                               })
        .def_property_readonly("num_child_stages", [](const Stage& s) { return s->numChildStages; })
        .def_property_readonly("store_predicate", [](const Stage& s) { return s->storePredicate; })
        // `double_buffer` is the primitive (a method, as in TVM); this is whether it was applied.
        .def_property_readonly("_is_double_buffered",
                               [](const Stage& s) { return s->doubleBuffer; })
        .def("__repr__", [](const Stage& s) {
            if (s.isGroup())
                return "group-stage(" + s.name() + ")";
            return "stage(" + s.name() + ", " + nodeToString(s->op) + ")";
        });
}

py::object tensorsOrOne(const std::vector<Tensor>& tensors) {
    if (tensors.size() == 1)
        return py::cast(tensors[0]);
    return py::cast(tensors);
}

void bindSchedule(py::module_& m) {
    py::class_<Schedule>(m, "Schedule")
        .def(
            "__getitem__", [](const Schedule& s, py::object key) { return s[opOf(key, "s[...]")]; },
            Located())
        .def_property_readonly("stages", [](const Schedule& s) { return s.stages(); })
        .def_property_readonly("stage_map",
                               [](const Schedule& s) {
                                   py::dict out;
                                   for (const Stage& stage : s.stages())
                                       out[wrapNode(stage->originOp.get())] = py::cast(stage);
                                   return out;
                               })
        .def_property_readonly("source_location",
                               [](const Schedule& s) { return locationObject(s->location); })
        .def_property_readonly("outputs",
                               [](const Schedule& s) {
                                   // TVM's: the operations the schedule was created for, as
                                   // they were (cache_read/cache_write give an output stage a
                                   // new operation; `B.op in s.outputs` stays true, and s[op]
                                   // finds the stage).
                                   py::list out;
                                   for (const Operation& op : s.outputs()) {
                                       Operation origin = op;
                                       for (const Stage& stage : s.stages())
                                           if (stage->op.same_as(op) && stage->originOp.defined())
                                               origin = stage->originOp;
                                       out.append(wrapNode(origin.get()));
                                   }
                                   return out;
                               })
        .def_property_readonly("keep_schedule_record",
                               [](const Schedule& s) { return s->keepScheduleRecord; })
        .def_property_readonly("schedule_record",
                               [](const Schedule& s) { return s->scheduleRecord; })
        .def_property_readonly("primitive_record",
                               [](const Schedule& s) { return s->primitiveRecord; })
        .def(
            "cache_read",
            [](const Schedule& s, const Tensor& t, const std::string& scope, py::object readers) {
                return s.cacheRead(t, scope, opList(readers, "a reader"));
            },
            py::arg("tensor"), py::arg("scope"), py::arg("readers"), Located())
        .def(
            "cache_write",
            [](const Schedule& s, py::object tensor, const std::string& scope) -> py::object {
                if (py::isinstance<Tensor>(tensor))
                    return py::cast(s.cacheWrite(tensor.cast<Tensor>(), scope));
                return py::cast(s.cacheWrite(tensor.cast<std::vector<Tensor>>(), scope));
            },
            py::arg("tensor"), py::arg("scope"), Located())
        .def(
            "rfactor",
            [](const Schedule& s, const Tensor& t, const IterVar& axis, int factorAxis) {
                return tensorsOrOne(s.rfactor(t, axis, factorAxis));
            },
            py::arg("tensor"), py::arg("axis"), py::arg("factor_axis") = 0, Located())
        .def(
            "create_group",
            [](const Schedule& s, py::object outputs, py::object inputs, bool includeInputs) {
                std::vector<Stage> rooted;
                Stage group = s.createGroup(tensorList(outputs, "create_group outputs"),
                                            tensorList(inputs, "create_group inputs"),
                                            includeInputs, &rooted);
                // TVM's LOG(WARNING), on the script's stderr.
                for (const Stage& stage : rooted)
                    py::print("warning: create_group: stage '" + stage.name() +
                                  "' was computed at a stage outside " + group.name() +
                                  "; it is now computed at the root of the group",
                              py::arg("file") = py::module_::import("sys").attr("stderr"));
                return group;
            },
            py::arg("outputs"), py::arg("inputs") = py::list(), py::arg("include_inputs") = false,
            Located())
        .def_property_readonly("groups", [](const Schedule& s) { return s.groups(); })
        .def("normalize", &Schedule::normalize, Located())
        .def("copy", &Schedule::copy, Located())
        .def("__eq__",
             [](const Schedule& a, py::object b) {
                 return py::isinstance<Schedule>(b) && a.same_as(b.cast<Schedule>());
             })
        .def("__hash__", [](const Schedule& s) { return std::hash<const void*>()(s.get()); });

    m.def(
        "_create_schedule",
        [](py::object ops, bool keepRecord) {
            Schedule s = createSchedule(opList(ops, "an output"), keepRecord);
            // An empty schedule (create_schedule([])) has nothing to show.
            if (!s.stages().empty())
                activeRecorder()->noteSchedule(s);
            return s;
        },
        py::arg("ops"), py::arg("keep_schedule_record") = false, Located());
}

/// The scan operation `value` names, for `api`; a UserError for any other operation.
Operation scanOf(const py::object& value, const char* api) {
    Operation op = opOf(value, "the scan");
    if (!op.as<ScanOpNode>())
        throw UserError(std::string(api) + ": '" + op->name + "' is a " + op->typeKey() +
                        ", not a scan");
    return op;
}

void bindAnalyses(py::module_& m) {
    m.def("AutoInlineElemWise", &autoInlineElemWise, py::arg("sch"), Located());
    m.def("AutoInlineBroadcast", &autoInlineBroadcast, py::arg("sch"), Located());
    m.def("AutoInlineInjective", &autoInlineInjective, py::arg("sch"), Located());
    m.def(
        "_infer_bound",
        [](const Schedule& s, const std::string& rules) {
            InferBoundResult r = inferBound(s, boundRulesNamed(rules));
            py::dict out;
            for (const auto& [iv, range] : r.bounds)
                out[wrapNode(iv.get())] = py::cast(range);
            return out;
        },
        py::arg("schedule"), py::arg("rules") = "tvm", Located());
    m.def(
        "_bound_trace_json",
        [](const Schedule& s, const std::string& rules) {
            return inferBound(s.normalize(), boundRulesNamed(rules)).trace.toJson();
        },
        py::arg("schedule"), py::arg("rules") = "tvm", Located());
    m.def(
        "_lower",
        [](const Schedule& s, const std::vector<Tensor>& args, const std::string& rules,
           bool keepTrivialLoops, const std::string& pass, bool record,
           const std::vector<Var>& scalars, const std::vector<std::string>& disabledPasses,
           const py::list& userPasses) {
            auto after = parseLowerPass(pass);
            bool afterUserPass = false;
            for (py::handle p : userPasses)
                afterUserPass = afterUserPass || p.cast<py::tuple>()[1].cast<std::string>() == pass;
            if (!after && !afterUserPass)
                throw UserError("unknown pass '" + pass +
                                "': expected schedule_ops, flatten, simplify, cse, final or the "
                                "name of a pass added with tir.add_lower_pass");
            LowerOptions options;
            options.rules = boundRulesNamed(rules);
            options.keepTrivialLoops = keepTrivialLoops;
            options.scalarArgs = scalars;
            applyPassContext(options, disabledPasses, userPasses);
            if (record)
                activeRecorder()->show(s, args, scalars, options.userPasses);
            LoweredFunc func = lower(s, args, options).func;
            // TVM's PrimFunc params: the arguments' buffers, then the symbolic shape variables.
            std::vector<Var> params = func.argBuffers;
            params.insert(params.end(), func.scalarParams.begin(), func.scalarParams.end());
            Stmt chosen = after ? func.after(*after) : Stmt();
            for (const auto& [name, stmt] : func.afterUserPasses)
                if (!after && name == pass)
                    chosen = stmt;
            // The root as is (with TVM 0.6's `produce` marker): str() of the module prints it;
            // PrimFunc.body is the TVM view of it (_tvm_stmt).
            return py::make_tuple(wrapNode(chosen.get()), params);
        },
        py::arg("schedule"), py::arg("args"), py::arg("rules") = "tvm",
        py::arg("keep_trivial_loops") = false, py::arg("after") = "final", py::arg("record") = true,
        py::arg("scalars") = std::vector<Var>(),
        py::arg("disabled_passes") = std::vector<std::string>(),
        py::arg("user_passes") = py::list(), Located());
    m.def(
        "_tir_pass",
        [](const std::string& name, const Stmt& body) {
            // TVM's tvm.tir.transform passes that Boundscope's pipeline has, by TVM's name.
            static const std::vector<std::pair<std::string, Stmt (*)(const Stmt&)>> passes = {
                {"tir.Simplify", simplifyStmt},
                {"tir.RemoveNoOp", removeNoOp},
                {"tir.UnrollLoop", unrollLoops},
                {"tir.VectorizeLoop", vectorizeLoops},
                {"tir.HoistIfThenElse", hoistIfThenElse},
                {"tir.CommonSubexprElimTIR", [](const Stmt& s) { return commonSubexprElim(s); }},
                {"tir.InjectPrefetch", injectPrefetch},
                {"tir.InjectDoubleBuffer", injectDoubleBuffer},
                {"tir.ThreadSync", insertThreadSync},
                {"tir.LowerThreadAllreduce", lowerThreadAllreduce},
            };
            for (const auto& [key, run] : passes)
                if (key == name)
                    return wrapNode(run(body).get());
            throw UserError("no built-in pass '" + name + "'");
        },
        py::arg("name"), py::arg("body"), Located());
    m.def(
        "_graph_dot",
        [](const Schedule& s, const std::string& kind, const std::string& stage,
           const std::string& rules) {
            auto parsed = viz::parseGraphKind(kind);
            if (!parsed)
                throw UserError("unknown graph kind '" + kind +
                                "': expected dag, itervar, attach or requests");
            // As the CLI's `graph` and the app draw it: from the normalized schedule, with
            // InferBound's ranges and trace.
            Schedule normalized = s.normalize();
            InferBoundResult bounds = inferBound(normalized, boundRulesNamed(rules));
            viz::GraphInput input{normalized, &bounds.bounds, &bounds.trace};
            return viz::toDot(viz::buildGraph(input, *parsed, stage));
        },
        py::arg("schedule"), py::arg("kind"), py::arg("stage") = "", py::arg("rules") = "tvm",
        Located());
    m.def(
        "_graph_model",
        [](const Schedule& s, const std::string& kind) {
            auto parsed = viz::parseGraphKind(kind);
            if (!parsed)
                throw UserError("unknown graph kind '" + kind +
                                "': expected dag, itervar, attach or requests");
            // The structure of a graph model of the schedule as written (TEDD draws it
            // unnormalized), as data: nodes and edges with the positions of the stage, IterVar
            // and relation each shows (tvm/contrib/tedd.py writes TEDD's DOT from it).
            viz::Graph graph = viz::buildGraph(viz::GraphInput{s}, *parsed, "");
            auto ref = [](const viz::ObjectRef& r) {
                return py::make_tuple(r.stage, r.iterVar, r.relation);
            };
            py::list nodes;
            for (const viz::GraphNode& n : graph.nodes) {
                py::dict node;
                node["id"] = n.id;
                node["kind"] = viz::graphNodeKindName(n.kind);
                node["title"] = n.title;
                node["ref"] = ref(n.ref);
                nodes.append(node);
            }
            py::list edges;
            for (const viz::GraphEdge& e : graph.edges) {
                py::dict edge;
                edge["from"] = e.from;
                edge["from_port"] = e.fromPort;
                edge["to"] = e.to;
                edge["to_port"] = e.toPort;
                edge["style"] = viz::edgeStyleName(e.style);
                edge["ref"] = ref(e.ref);
                edges.append(edge);
            }
            py::dict out;
            out["nodes"] = nodes;
            out["edges"] = edges;
            return out;
        },
        py::arg("schedule"), py::arg("kind"), Located());
    m.def(
        "_render_dot",
        [](const std::string& dot, const std::string& format) {
            auto parsed = viz::parseGraphFormat(format);
            if (!parsed)
                throw UserError("unknown graph format '" + format + "': expected dot, svg or png");
            return py::bytes(viz::renderDot(dot, "graph", *parsed));
        },
        py::arg("dot"), py::arg("format") = "svg", Located(),
        "DOT text rendered by the Graphviz built into Boundscope (svg or png bytes).");
    m.def(
        "_tvm_stmt", [](const Stmt& s) { return s; }, py::arg("stmt"),
        "The statement as TVM's Python API sees it: past TVM 0.6's markers (Casters.h).");
    m.def(
        "_show",
        [](const Schedule& s, const std::vector<Tensor>& args, const std::vector<Var>& scalars) {
            activeRecorder()->show(s, args, scalars);
        },
        py::arg("schedule"), py::arg("args"), py::arg("scalars") = std::vector<Var>(), Located());
    m.def(
        "_default_args", [](const Schedule& s) { return defaultArguments(s); },
        py::arg("schedule"));
    // tvm.te.schedule's graph helpers (TVM's graph.cc, as its test_te_schedule_graph uses them).
    m.def(
        "CreateReadGraph",
        [](py::object roots) {
            ReadGraph graph = createReadGraph(opList(roots, "a root"));
            py::dict out;
            for (const Operation& op : graph.ops())
                out[wrapNode(op.get())] = graph.at(op);
            return out;
        },
        py::arg("roots"), Located());
    m.def(
        "PostDFSOrder",
        [](py::object roots, const py::dict& graph) {
            ReadGraph read;
            for (const auto& [op, inputs] : graph)
                read.add(opOf(op, "a read graph's operation"), inputs.cast<std::vector<Tensor>>());
            py::list out;
            for (const Operation& op : postDFSOrder(opList(roots, "a root"), read))
                out.append(wrapNode(op.get()));
            return out;
        },
        py::arg("roots"), py::arg("g"), Located());
    m.def(
        "CreateAttachPath",
        [](const Schedule& s) {
            py::dict out;
            for (const auto& [op, path] : createAttachPath(s))
                out[wrapNode(op.get())] = path.loops();
            return out;
        },
        py::arg("sch"), Located());
    m.def(
        "ScanGetBody",
        [](py::object scan) {
            Operation op = scanOf(scan, "ScanGetBody");
            py::list out;
            for (const Operation& body : scanGetBody(op))
                out.append(wrapNode(body.get()));
            return out;
        },
        py::arg("scan_op"), Located());
    m.def(
        "ScanFixPointAnalysis",
        [](py::object scan) {
            Operation op = scanOf(scan, "ScanFixPointAnalysis");
            py::dict out;
            for (const auto& [iv, fixed] : scanFixPointAnalysis(op))
                out[wrapNode(iv.get())] =
                    py::cast(IntImmNode::make(DataType::int32(), fixed ? 1 : 0));
            return out;
        },
        py::arg("scan_op"), Located());
    m.def(
        "_attach_path",
        [](const Schedule& s, py::object key) {
            return createAttachPath(s).at(opOf(key, "the stage")).loops();
        },
        py::arg("schedule"), py::arg("op"), Located());
}

/// While a script's pass runs for an analysis (not for the script's own tvm.lower), raises
/// KeyboardInterrupt in it once the analysis is cancelled: the app's Stop, the CLI's --timeout
/// (support/Cancellation.h). A watcher thread polls the flag; the exception needs the GIL,
/// which the pass gives up now and then. Made and destroyed with the GIL held.
class PassInterrupter {
public:
    explicit PassInterrupter(const std::atomic<bool>* cancelled)
        : m_ident(PyThread_get_thread_ident()) {
        if (cancelled)
            m_watcher = std::thread([this, cancelled] { watch(cancelled); });
    }
    ~PassInterrupter() {
        if (!m_watcher.joinable())
            return;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_done = true;
        }
        m_wake.notify_all();
        {
            // The watcher may be waiting for the GIL.
            py::gil_scoped_release release;
            m_watcher.join();
        }
        // An exception delivered as the pass returned must not hit later Python code.
        PyThreadState_SetAsyncExc(m_ident, nullptr);
    }
    PassInterrupter(const PassInterrupter&) = delete;
    PassInterrupter& operator=(const PassInterrupter&) = delete;

private:
    /// Raises KeyboardInterrupt once the flag is set, and again every 100 ms while the pass
    /// runs on (it may catch one), as ScriptRunner does for a script.
    void watch(const std::atomic<bool>* cancelled) {
        std::unique_lock<std::mutex> lock(m_mutex);
        bool fired = false;
        while (!m_wake.wait_for(lock, std::chrono::milliseconds(fired ? 100 : 20),
                                [this] { return m_done; })) {
            if (!cancelled->load())
                continue;
            lock.unlock();
            PyGILState_STATE gil = PyGILState_Ensure();
            // m_done is set with the GIL held: under it, the pass is still running or over.
            if (!finished()) {
                fired = true;
                PyThreadState_SetAsyncExc(m_ident, PyExc_KeyboardInterrupt);
            }
            PyGILState_Release(gil);
            lock.lock();
        }
    }
    bool finished() {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_done;
    }

    unsigned long m_ident;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_done = false;
    std::thread m_watcher;
};

} // namespace

void applyPassContext(LowerOptions& options, const std::vector<std::string>& disabledPasses,
                      const py::list& userPasses) {
    for (const std::string& name : disabledPasses) {
        if (name == "tir.CommonSubexprElimTIR")
            options.commonSubexprElim = false;
        else if (name == "tir.HoistIfThenElse")
            options.hoistIfThenElse = false;
    }
    for (py::handle p : userPasses) {
        auto entry = p.cast<py::tuple>();
        UserPass user{entry[0].cast<int>(), entry[1].cast<std::string>(), nullptr};
        user.run = [run = sharedPyObject(entry[2]), name = user.name](const Stmt& stmt) {
            // Called by the script's own tvm.lower (which holds the GIL: a Python error goes back
            // to the script as it is), or later by the CLI's and the app's analyses of the
            // program on another thread (the error becomes the analysis's message).
            const bool fromScript = PyGILState_Check() != 0;
            py::gil_scoped_acquire gil;
            py::object out;
            {
                const std::atomic<bool>* cancelled = fromScript ? nullptr : cancellationFlag();
                PassInterrupter interrupter(cancelled);
                try {
                    // The root as is, markers included: the Python side wraps it in a PrimFunc.
                    out = (*run)(wrapNode(stmt.get()));
                } catch (py::error_already_set& e) {
                    if (fromScript)
                        throw;
                    // Its KeyboardInterrupt, or an engine call inside it that saw the flag.
                    if (cancelled && cancelled->load())
                        throw Cancelled();
                    throw UserError("lower: the pass '" + name + "' failed: " + e.what());
                }
            }
            if (!py::isinstance<StmtNode>(out))
                throw UserError("lower: the pass '" + name + "' returned a " +
                                std::string(py::str(py::type::of(out).attr("__name__"))) +
                                ", not a statement");
            return Stmt(out.cast<StmtNode*>());
        };
        options.userPasses.push_back(std::move(user));
    }
}

std::shared_ptr<py::object> sharedPyObject(py::object object) {
    return std::shared_ptr<py::object>(new py::object(std::move(object)), [](py::object* held) {
        if (Py_IsInitialized()) {
            py::gil_scoped_acquire gil;
            delete held;
        } else {
            // The interpreter has ended (the process is exiting): the reference cannot be
            // dropped any more.
            held->release();
            delete held;
        }
    });
}

void bindScheduleLayer(py::module_& m) {
    bindRelations(m);
    bindStage(m);
    bindSchedule(m);
    bindAnalyses(m);
}

} // namespace bs::script
