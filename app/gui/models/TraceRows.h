/// \file
/// The rows of the bounds and trace tables: the bounds of every IterVar, and for one
/// stage its BoundTrace (seed 000, "InferRootBound": phase-1 leaf sets, the relax set, phase-2
/// root sets, phase-3 requests, the phase-4 union and ranges). Pure functions of an Analysis,
/// so the models stay adapters and the tests can check the text without widgets.
#pragma once

#include "analysis/Analysis.h"
#include "models/StringTableModel.h"

#include <QString>
#include <QStringList>

namespace bs::gui {

/// Every IterVar of every stage: Stage, IterVar, Min, Extent, Role.
QStringList boundsHeaders();
QList<TableRow> boundsRows(const Analysis& analysis);

/// Phase 3: each consumer's request per output axis of the stage.
QStringList requestHeaders();
QList<TableRow> requestRows(const Analysis& analysis, const StageTrace& trace);
/// Phase 1: the consumers' leaf sets with the case applied and why.
QStringList leafSetHeaders();
QList<TableRow> leafSetRows(const Analysis& analysis, const StageTrace& trace);
/// The consumers' attach-path loops that were relaxed, and why.
QStringList relaxHeaders();
QList<TableRow> relaxRows(const Analysis& analysis, const StageTrace& trace);
/// Phase 2: the consumers' root sets.
QStringList rootSetHeaders();
QList<TableRow> rootSetRows(const Analysis& analysis, const StageTrace& trace);
/// Phase 4: the union of the requests per root axis and the final ranges.
QStringList unionHeaders();
QList<TableRow> unionRows(const StageTrace& trace);

} // namespace bs::gui
