#include "views/Theme.h"

#include <QApplication>
#include <QHash>
#include <QLabel>
#include <QStyle>
#include <QStyleFactory>

#include <cmath>

namespace bs::gui::theme {

namespace {

double channel(double c) { return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }

double luminance(const QColor& color) {
    return 0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF()) +
           0.0722 * channel(color.blueF());
}

QColor base() { return QApplication::palette().color(QPalette::Base); }

/// The style and palette the app had before the dark palette replaced them.
struct LightLook {
    QString style = QApplication::style()->name();
    QPalette palette = QApplication::palette();
};
const LightLook& lightLook() {
    static const LightLook look;
    return look;
}

} // namespace

double contrast(const QColor& a, const QColor& b) {
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor readable(const QColor& color, const QColor& background, double minimum) {
    float hue = 0, saturation = 0, lightness = 0, alpha = 1;
    color.getHslF(&hue, &saturation, &lightness, &alpha);
    // Away from the background: lighter on a dark one, darker on a light one.
    const float step = luminance(background) < 0.18 ? 0.02f : -0.02f;
    QColor result = color;
    while (contrast(result, background) < minimum) {
        lightness += step;
        if (lightness < 0 || lightness > 1)
            break;
        result = QColor::fromHslF(hue, saturation, lightness, alpha);
    }
    return result;
}

bool isDark() {
    const QPalette palette = QApplication::palette();
    return luminance(palette.color(QPalette::Base)) < luminance(palette.color(QPalette::Text));
}

QColor ink(const QColor& onWhite) {
    if (!isDark())
        return onWhite;
    // Highlighters ask for every match of every line: remember the answers per Base.
    static QHash<QPair<QRgb, QRgb>, QColor> cache;
    const QPair<QRgb, QRgb> key(onWhite.rgba(), base().rgba());
    if (const auto found = cache.constFind(key); found != cache.constEnd())
        return *found;
    float hue = 0, saturation = 0, lightness = 0, alpha = 1;
    onWhite.getHslF(&hue, &saturation, &lightness, &alpha);
    // Mirrored: a dark ink becomes as light, then light enough to read.
    const QColor adapted =
        readable(QColor::fromHslF(hue, saturation, 1 - lightness, alpha), base());
    cache.insert(key, adapted);
    return adapted;
}

QColor tint(const QColor& onWhite) {
    if (!isDark())
        return onWhite;
    float hue = 0, saturation = 0, lightness = 0, alpha = 1;
    onWhite.getHslF(&hue, &saturation, &lightness, &alpha);
    // A pale tint on white is a muted one on a dark Base: as far from it, and half as
    // saturated, so light text stays readable on it.
    const float baseLightness = base().lightnessF();
    return QColor::fromHslF(hue, saturation * 0.5f,
                            std::min(1.0f, baseLightness + 0.8f * (1 - lightness)), alpha);
}

QColor captionInk() { return ink(QColor(0x4a, 0x50, 0x5a)); }

QPalette darkPalette() {
    const QColor window(0x2b, 0x2d, 0x30);
    const QColor text(0xdf, 0xe1, 0xe5);
    const QColor disabled(0x7a, 0x7e, 0x85);
    QPalette palette;
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
    palette.setColor(QPalette::AlternateBase, window);
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Button, QColor(0x3c, 0x3f, 0x41));
    palette.setColor(QPalette::ButtonText, text);
    palette.setColor(QPalette::BrightText, Qt::white);
    palette.setColor(QPalette::Highlight, QColor(0x2f, 0x65, 0xca));
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::Link, QColor(0x6a, 0xa7, 0xff));
    palette.setColor(QPalette::LinkVisited, QColor(0xb1, 0x8c, 0xf0));
    palette.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9e, 0xa6));
    palette.setColor(QPalette::ToolTipBase, QColor(0x3c, 0x3f, 0x41));
    palette.setColor(QPalette::ToolTipText, text);
    palette.setColor(QPalette::Light, QColor(0x4a, 0x4d, 0x50));
    palette.setColor(QPalette::Midlight, QColor(0x3c, 0x3f, 0x41));
    palette.setColor(QPalette::Mid, QColor(0x32, 0x34, 0x37));
    palette.setColor(QPalette::Dark, QColor(0x1a, 0x1b, 0x1d));
    palette.setColor(QPalette::Shadow, Qt::black);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        palette.setColor(QPalette::Disabled, role, disabled);
    return palette;
}

void applyDark(bool dark) {
    const LightLook& light = lightLook(); // taken before the first change
    if (dark && !isDark()) {
        // Fusion draws every control from the palette; the platform style may not.
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
    } else if (!dark && isDark()) {
        QApplication::setStyle(QStyleFactory::create(light.style));
        QApplication::setPalette(light.palette);
    } else {
        return;
    }
    Q_EMIT notifier()->changed();
}

Notifier* notifier() {
    static Notifier* instance = new Notifier;
    return instance;
}

void useCaptionInk(QLabel* label) {
    auto apply = [label] {
        QPalette palette = label->palette();
        palette.setColor(QPalette::WindowText,
                         readable(captionInk(), palette.color(QPalette::Window)));
        label->setPalette(palette);
    };
    apply();
    QObject::connect(notifier(), &Notifier::changed, label, apply);
}

} // namespace bs::gui::theme
