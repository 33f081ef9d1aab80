// Session: the one owner of the target and baseline configurations and the chosen database.
#include "Session.h"

#include "common/ConcordeError.h"
#include "params/PresetLibrary.h"

#include <QSignalSpy>
#include <QtTest>

using namespace concorde;
using concorde::ui::Session;

class SessionTest : public QObject {
    Q_OBJECT

private slots:
    void startsWithGivenConfigs() {
        CoreConfig target;
        target.set(ParamId::Rob, 256);
        const CoreConfig baseline = PresetLibrary::loadDefault().require("little").config;
        const Session session(target, baseline);
        QCOMPARE(session.config(), target);
        QCOMPARE(session.baseline(), baseline);
        QVERIFY(session.databasePath().isEmpty());
        QVERIFY(!session.hasDatabase());
    }

    void setParameterEmitsOncePerChange() {
        Session session;
        QSignalSpy spy(&session, &Session::configChanged);
        QSignalSpy baselineSpy(&session, &Session::baselineChanged);
        QVERIFY(session.config().rob() != 256);

        session.setParameter(ParamId::Rob, 256);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(session.config().rob(), 256);
        QCOMPARE(spy.at(0).at(0).value<CoreConfig>(), session.config());

        session.setParameter(ParamId::Rob, 256); // no-op
        QCOMPARE(spy.count(), 1);

        session.setParameter(ParamId::BranchPredictor, 0);
        QCOMPARE(spy.count(), 2);
        QCOMPARE(session.config().branchPredictor(), BranchPredictorKind::Simple);
        QCOMPARE(baselineSpy.count(), 0); // the target alone changed
    }

    void rejectedValueChangesNothing() {
        Session session;
        const CoreConfig before = session.config();
        QSignalSpy spy(&session, &Session::configChanged);
        QVERIFY_THROWS_EXCEPTION(ConcordeError, session.setParameter(ParamId::Rob, 4096));
        QCOMPARE(session.config(), before);
        QCOMPARE(spy.count(), 0);
    }

    void setConfigAndPresetsEmitOnlyOnChange() {
        const PresetLibrary presets = PresetLibrary::loadDefault();
        const Preset& n1 = presets.require("n1-like");
        Session session;
        QSignalSpy spy(&session, &Session::configChanged);

        session.setConfig(CoreConfig{}); // equal to the default: no-op
        QCOMPARE(spy.count(), 0);

        session.applyPreset(n1);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(session.config(), n1.config);

        session.applyPreset(n1); // same again
        QCOMPARE(spy.count(), 1);

        session.setConfig(CoreConfig{});
        QCOMPARE(spy.count(), 2);
        QCOMPARE(session.config(), CoreConfig{});
    }

    void baselineHasItsOwnSignal() {
        const PresetLibrary presets = PresetLibrary::loadDefault();
        Session session;
        QSignalSpy baselineSpy(&session, &Session::baselineChanged);
        QSignalSpy configSpy(&session, &Session::configChanged);

        session.applyPresetAsBaseline(presets.require("little"));
        QCOMPARE(baselineSpy.count(), 1);
        QCOMPARE(session.baseline(), presets.require("little").config);
        QCOMPARE(baselineSpy.at(0).at(0).value<CoreConfig>(), presets.require("little").config);

        session.setBaseline(presets.require("little").config); // no-op
        QCOMPARE(baselineSpy.count(), 1);
        QCOMPARE(configSpy.count(), 0);
        QCOMPARE(session.config(), CoreConfig{});
    }

    void defaultBaselineIsBigWhenPresent() {
        const PresetLibrary presets = PresetLibrary::loadDefault();
        QVERIFY(presets.find("big") != nullptr);
        QCOMPARE(Session::defaultBaseline(presets), presets.require("big").config);
        QVERIFY(Session::defaultBaseline(presets) != CoreConfig{});
        QCOMPARE(Session::defaultBaseline(PresetLibrary{}), CoreConfig{});
    }

    void databasePathIsRecordedButNotLoaded() {
        Session session;
        QSignalSpy spy(&session, &Session::databasePathChanged);
        session.setDatabasePath(QStringLiteral("/tmp/some.sqlite"));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(session.databasePath(), QStringLiteral("/tmp/some.sqlite"));
        session.setDatabasePath(QStringLiteral("/tmp/some.sqlite"));
        QCOMPARE(spy.count(), 1);
        QVERIFY(!session.hasDatabase()); // nothing can be loaded yet, so views stay empty
    }
};

QTEST_MAIN(SessionTest)
#include "SessionTest.moc"
