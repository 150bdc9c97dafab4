/// \file
/// The sentences of the bound-inference steps (schedule/BoundSteps.h), in the seed's terms:
/// what one step did and why, naming the IterVars, sets and ranges involved. Shared by
/// InferBound, the tight rules, ScheduleOps and storage flattening, which make the steps.
#pragma once

#include "schedule/BoundSteps.h"

namespace bs::steptext {

/// The IterVar as the sentences name it (`i.outer`); the step names its stage.
std::string ivName(const IterVar& iv);

/// Where the stage is computed: "computed at i.outer of 'C'" (plus "with its group g" when
/// the stage goes where its group is), "at root", "inlined".
std::string attachedAt(const Stage& stage);
std::string visit(const Stage& stage, const StageVisit& v, const std::string& attachedAt);
std::string consumer(const Stage& stage, const Operation& consumer, const ConsumerVisit& c,
                     const AttachPath& producerAttach);
// `owner` is the stage whose IterVars the step names (the consumer in phases 1-2): the
// sentences say "D's j" so that two stages' IterVars of one name are told apart.
std::string leafSet(const LeafSetEntry& e, const std::string& owner);
std::string relax(const RelaxEntry& e, const std::string& owner);
std::string passUp(const PassEvent& event, const std::string& owner);
std::string rootSet(const RootSetEntry& e, bool relaxed, const std::string& owner);
std::string request(const RequestEntry& e, const Operation& consumer);
std::string rootBound(const RootBound& b, size_t requests, const std::string& owner);
std::string passDown(const PassEvent& event, const std::string& owner);
std::string tightAxis(const IterVar& axis, const TightAxis& t, const std::string& owner);
std::string tightRemainder(const IterVar& leaf, const Expr& extent, const Range& range,
                           const std::string& owner);

} // namespace bs::steptext
