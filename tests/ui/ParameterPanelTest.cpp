// ParameterPanel: twenty grid-snapping sliders in three groups, kept in step with the Session.
#include "ParameterPanel.h"

#include "Session.h"
#include "params/PresetLibrary.h"

#include <QGroupBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QWheelEvent>
#include <QtTest>
#include <set>

using namespace concorde;
using concorde::ui::ParameterPanel;
using concorde::ui::Session;

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

QSlider* sliderFor(const QWidget& panel, const std::string& key) {
    return panel.findChild<QSlider*>(QStringLiteral("slider_") + qs(key));
}

QLabel* valueFor(const QWidget& panel, const std::string& key) {
    return panel.findChild<QLabel*>(QStringLiteral("value_") + qs(key));
}

} // namespace

class ParameterPanelTest : public QObject {
    Q_OBJECT

private slots:
    void twentySlidersInThreeGroups() {
        Session session;
        ParameterPanel panel(session);
        QCOMPARE(panel.findChildren<QSlider*>().size(), qsizetype(20));

        const auto boxes = panel.findChildren<QGroupBox*>();
        QCOMPARE(boxes.size(), qsizetype(3));
        QStringList titles;
        for (const QGroupBox* box : boxes)
            titles << box->title();
        QCOMPARE(titles, (QStringList{"Front end", "Back end", "Memory"}));

        // Membership as docs/design.md §3 reads: written out, not derived from the spec table.
        const std::map<QString, std::set<QString>> expected = {
            {"Front end",
             {"fetch_width", "decode_width", "rename_width", "fetch_buffers", "icache_fills", "bp",
              "bp_miss_pct"}},
            {"Back end",
             {"rob", "commit_width", "lq", "sq", "alu_issue", "fp_issue", "ls_issue", "ls_pipes",
              "load_pipes"}},
            {"Memory", {"l1d_kb", "l1i_kb", "l2_kb", "pf_degree"}},
        };
        for (const QGroupBox* box : boxes) {
            std::set<QString> keys;
            for (const QSlider* slider : box->findChildren<QSlider*>())
                keys.insert(slider->objectName().mid(int(qstrlen("slider_"))));
            QCOMPARE(keys, expected.at(box->title()));
        }
    }

    void everySliderSpansItsGrid() {
        Session session;
        ParameterPanel panel(session);
        for (const ParameterSpec& spec : ParameterSpace::all()) {
            QSlider* slider = sliderFor(panel, spec.key);
            QVERIFY2(slider, spec.key.c_str());
            QCOMPARE(panel.slider(spec.id), slider);
            QCOMPARE(slider->minimum(), 0);
            QCOMPARE(slider->maximum(), int(spec.grid.size()) - 1);
            QCOMPARE(slider->value(), int(spec.nearestGridIndex(session.config().value(spec.id))));
            QLabel* value = valueFor(panel, spec.key);
            QVERIFY2(value, spec.key.c_str());
            QCOMPARE(value->text(), qs(spec.formatWithUnit(session.config().value(spec.id))));
            auto* label = panel.findChild<QLabel*>(QStringLiteral("label_") + qs(spec.key));
            QVERIFY2(label, spec.key.c_str());
            QCOMPARE(label->text(), qs(spec.label));
            QVERIFY(slider->toolTip().contains(qs(spec.meaning)));
            QVERIFY(slider->toolTip().contains(qs(spec.describeRange())));
        }
        QCOMPARE(sliderFor(panel, "bp")->maximum(), 1); // two positions: simple, tage
    }

    void keyRightMovesToNextGridValue_data() {
        QTest::addColumn<int>("param");
        for (const ParameterSpec& spec : ParameterSpace::all())
            QTest::newRow(spec.key.c_str()) << int(index(spec.id));
    }

    void keyRightMovesToNextGridValue() {
        QFETCH(int, param);
        const ParameterSpec& spec = ParameterSpace::all()[std::size_t(param)];
        // The miss rate is live only with the simple predictor.
        CoreConfig start;
        if (spec.id == ParamId::BpMissPct)
            start.set(ParamId::BranchPredictor, 0);
        Session session(start, start);
        ParameterPanel panel(session);
        QSlider* slider = sliderFor(panel, spec.key);
        QLabel* value = valueFor(panel, spec.key);
        QSignalSpy spy(&session, &Session::configChanged);

        const int position = slider->value();
        QCOMPARE(spec.grid[std::size_t(position)], session.config().value(spec.id));
        // Step up, or down when the default already sits on the last grid value.
        const bool up = position + 1 < int(spec.grid.size());
        const int next = up ? position + 1 : position - 1;
        slider->setFocus();
        QTest::keyClick(slider, up ? Qt::Key_Right : Qt::Key_Left);

        QCOMPARE(slider->value(), next);
        QCOMPARE(spy.count(), 1);
        const double expected = spec.grid[std::size_t(next)];
        QCOMPARE(session.config().value(spec.id), expected);
        QCOMPARE(value->text(), qs(spec.formatWithUnit(expected)));
        for (const ParameterSpec& other : ParameterSpace::all())
            if (other.id != spec.id)
                QCOMPARE(session.config().value(other.id), start.value(other.id));
    }

    void robStepShowsUnit() {
        Session session;
        ParameterPanel panel(session);
        QCOMPARE(session.config().rob(), 128);
        QTest::keyClick(sliderFor(panel, "rob"), Qt::Key_Right);
        QCOMPARE(session.config().rob(), 192);
        QCOMPARE(valueFor(panel, "rob")->text(), QStringLiteral("192 entries"));
        QTest::keyClick(sliderFor(panel, "bp"), Qt::Key_Left);
        QCOMPARE(valueFor(panel, "bp")->text(), QStringLiteral("simple"));
        QCOMPARE(session.config().branchPredictor(), BranchPredictorKind::Simple);
        QTest::keyClick(sliderFor(panel, "bp_miss_pct"), Qt::Key_Right);
        QCOMPARE(valueFor(panel, "bp_miss_pct")->text(), QStringLiteral("5 %"));
    }

    void sliderWithoutEffectIsDisabledWithTheReason() {
        // bp_miss_pct sets the simple predictor's miss rate; under TAGE it changes nothing.
        Session session;
        ParameterPanel panel(session);
        QCOMPARE(session.config().branchPredictor(), BranchPredictorKind::Tage);
        QSlider* missRate = sliderFor(panel, "bp_miss_pct");
        QVERIFY(!missRate->isEnabled());
        QVERIFY(!valueFor(panel, "bp_miss_pct")->isEnabled());
        QVERIFY(!panel.findChild<QLabel*>("label_bp_miss_pct")->isEnabled());
        QVERIFY2(missRate->toolTip().startsWith("No effect now."), qPrintable(missRate->toolTip()));
        QVERIFY(missRate->toolTip().contains("simple branch predictor"));
        QVERIFY(panel.findChild<QLabel*>("label_bp_miss_pct")->toolTip().contains("No effect"));
        const double before = session.config().bpMissPct();
        QTest::keyClick(missRate, Qt::Key_Right); // a disabled slider takes no keys
        QCOMPARE(session.config().bpMissPct(), before);
        // Every other slider stays live.
        for (const ParameterSpec& spec : ParameterSpace::all())
            if (spec.id != ParamId::BpMissPct)
                QVERIFY2(sliderFor(panel, spec.key)->isEnabled(), spec.key.c_str());

        // The simple predictor: live again, the plain tooltip back; and off once more with TAGE.
        QTest::keyClick(sliderFor(panel, "bp"), Qt::Key_Left);
        QCOMPARE(session.config().branchPredictor(), BranchPredictorKind::Simple);
        QVERIFY(missRate->isEnabled());
        QVERIFY(!missRate->toolTip().contains("No effect"));
        QTest::keyClick(missRate, Qt::Key_Right);
        QVERIFY(session.config().bpMissPct() != before);
        QTest::keyClick(sliderFor(panel, "bp"), Qt::Key_Right);
        QVERIFY(!missRate->isEnabled());
    }

    void presetMovesSliders() {
        const PresetLibrary presets = PresetLibrary::loadDefault();
        Session session;
        ParameterPanel panel(session);
        QSignalSpy spy(&session, &Session::configChanged);

        for (const char* name : {"little", "big", "n1-like"}) {
            const Preset& preset = presets.require(name);
            const int before = int(spy.count());
            session.applyPreset(preset);
            // One signal, and the sliders following it wrote nothing back.
            QCOMPARE(int(spy.count()), before + 1);
            QCOMPARE(session.config(), preset.config);
            for (const ParameterSpec& spec : ParameterSpace::all()) {
                const double v = preset.config.value(spec.id);
                QCOMPARE(sliderFor(panel, spec.key)->value(), int(spec.nearestGridIndex(v)));
                QCOMPARE(valueFor(panel, spec.key)->text(), qs(spec.formatWithUnit(v)));
            }
        }
        QCOMPARE(sliderFor(panel, "rob")->value(), 5); // n1-like: 128 is grid index 5
        session.applyPreset(presets.require("big"));
        QCOMPARE(sliderFor(panel, "rob")->value(), sliderFor(panel, "rob")->maximum());
        QCOMPARE(valueFor(panel, "rob")->text(), QStringLiteral("512 entries"));
    }

    void offGridValueIsShownExactlyAndNotSnapped() {
        Session session;
        ParameterPanel panel(session);
        CoreConfig config;
        config.set(ParamId::Rob, 100); // between grid values 96 and 128
        session.setConfig(config);
        QCOMPARE(sliderFor(panel, "rob")->value(), 4); // nearest grid value 96
        QCOMPARE(valueFor(panel, "rob")->text(), QStringLiteral("100 entries"));
        QVERIFY(valueFor(panel, "rob")->font().italic());
        QCOMPARE(session.config().rob(), 100); // the slider sync did not write 96 back
        QTest::keyClick(sliderFor(panel, "rob"), Qt::Key_Right);
        QCOMPARE(session.config().rob(), 128);
        QVERIFY(!valueFor(panel, "rob")->font().italic());
    }

    void valueLabelsFitEveryGridValue() {
        Session session;
        ParameterPanel panel(session);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        for (const ParameterSpec& spec : ParameterSpace::all()) {
            QLabel* label = valueFor(panel, spec.key);
            for (double v : spec.grid) {
                const int needed =
                    label->fontMetrics().horizontalAdvance(qs(spec.formatWithUnit(v)));
                QVERIFY2(label->width() >= needed,
                         qPrintable(qs(spec.key) + QStringLiteral(" label too narrow")));
            }
            QVERIFY2(sliderFor(panel, spec.key)->width() >= 100, spec.key.c_str());
        }
    }

    void wheelOverUnfocusedSliderDoesNotMoveIt() {
        Session session;
        ParameterPanel panel(session);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSlider* slider = sliderFor(panel, "rob");
        const CoreConfig before = session.config();
        const QPointF centre = QRectF(slider->rect()).center();
        const auto wheel = [&] {
            QWheelEvent event(centre, slider->mapToGlobal(centre), QPoint(), QPoint(0, 120),
                              Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(slider, &event);
        };
        slider->clearFocus();
        wheel();
        QCOMPARE(session.config(), before);

        // Once focused, the wheel does step the slider (proves the event reaches it at all).
        panel.activateWindow();
        slider->setFocus();
        QTRY_VERIFY(slider->hasFocus());
        wheel();
        QVERIFY(session.config() != before);
    }
};

QTEST_MAIN(ParameterPanelTest)
#include "ParameterPanelTest.moc"
