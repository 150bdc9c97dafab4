/// \file
/// The app's colours under a light or a dark palette (issue 17, item 7). The views were drawn
/// for white paper; rather than keep two hand-picked sets, every colour is written once, as it
/// looks on white, and adapted to the application palette where it is used: text colours keep
/// their hue and are made light enough to read on a dark Base (WCAG contrast 4.5 at least),
/// background tints keep their hue and (nearly) their distance from Base, muted so that light
/// text stays readable on them. Under the light palette both return the colour unchanged, so
/// the light look is exactly the one designed.
///
/// The dark palette is the app's own (View > Dark Theme, or `--theme dark`), applied with the
/// Fusion style; notifier() tells the views that cache colours (highlighters, HTML captions) to
/// rebuild them.
#pragma once

#include <QColor>
#include <QObject>
#include <QPalette>

class QLabel;

namespace bs::gui::theme {

/// The WCAG 2 contrast ratio of two colours, 1 (none) to 21 (black on white).
double contrast(const QColor& a, const QColor& b);
/// `color` with its lightness moved away from `background`'s until their contrast is
/// `minimum` at least (or lightness runs out); hue and saturation are kept.
QColor readable(const QColor& color, const QColor& background, double minimum = 4.5);

/// Whether the application palette is dark (its Base darker than its Text).
bool isDark();
/// A text colour designed for white paper, for text on the palette's Base.
QColor ink(const QColor& onWhite);
/// A background tint designed for white paper (a pale colour), about as far from the
/// palette's Base as it is from white, with its hue, half as saturated.
QColor tint(const QColor& onWhite);
/// The grey of secondary text (captions, hints): #4a505a on white.
QColor captionInk();

/// The app's dark palette.
QPalette darkPalette();
/// Switches the application to the dark palette or back to the style's own; notifier()'s
/// changed() follows. Remembers nothing: the caller keeps the choice.
void applyDark(bool dark);

/// Emits changed() after applyDark().
class Notifier : public QObject {
    Q_OBJECT
Q_SIGNALS:
    void changed();
};
Notifier* notifier();

/// Shows `label` in the caption grey, now and after every theme change.
void useCaptionInk(QLabel* label);

} // namespace bs::gui::theme
