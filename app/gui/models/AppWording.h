/// \file
/// The engine's messages are written for the command line (`use --target emulate`, `fix: use
/// --rules tight`); the app shows them with its own controls' names instead (`the GPU
/// emulation target`; `the tight rules`, then where to choose them). A flag in parentheses
/// after the words it stands for (`in GPU emulation (--target emulate)`) is dropped.
#pragma once

#include <QString>

namespace bs::gui {

/// `engineMessage` with its command-line flags named as the app's controls.
QString appWording(const QString& engineMessage);

} // namespace bs::gui
