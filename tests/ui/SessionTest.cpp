// Session: the one owner of the target and baseline configurations, the open database, the
// selected program, and the live predictions computed from them off the UI thread.
#include "Session.h"

#include "../support/TinyExplorerDatabase.h"
#include "SessionFile.h"
#include "Theme.h"
#include "common/ConcordeError.h"
#include "explore/ConfigChecker.h"
#include "explore/DatabasePredictor.h"
#include "explore/ExplorerModel.h"
#include "params/PresetLibrary.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <random>

using namespace concorde;
using concorde::ui::PredictionPtr;
using concorde::ui::Session;

namespace {

/// The default configuration moved onto the tiny database's grid, at ROB 64 (the only ROB
/// value the tiny model was trained on).
CoreConfig onTinyGrid() {
    CoreConfig config =
        ConfigChecker(ParameterGrid(testing::tinyExplorerGrid()), {}).snap(CoreConfig{});
    config.set(ParamId::Rob, 64);
    return config;
}

} // namespace

class SessionTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString database_;

    QString file(const char* name) const { return dir_.filePath(QString::fromLatin1(name)); }

private slots:
    void initTestCase() {
        database_ = file("tiny.sqlite");
        testing::buildTinyExplorerDatabase(database_.toStdString());
    }

    void startsWithGivenConfigs() {
        CoreConfig target;
        target.set(ParamId::Rob, 256);
        const CoreConfig baseline = PresetLibrary::loadDefault().require("little").config;
        const Session session(target, baseline);
        QCOMPARE(session.config(), target);
        QCOMPARE(session.baseline(), baseline);
        QVERIFY(session.databasePath().isEmpty());
        QVERIFY(!session.hasDatabase());
        QVERIFY(!session.isOpening());
        QVERIFY(!session.prediction());
        QVERIFY(session.grid() == ParameterGrid{}); // the default grid until a database opens
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

    void defaultBaselineIsLittleWhenPresent() {
        const PresetLibrary presets = PresetLibrary::loadDefault();
        QVERIFY(presets.find("little") != nullptr);
        QCOMPARE(Session::defaultBaseline(presets), presets.require("little").config);
        QVERIFY(Session::defaultBaseline(presets) != CoreConfig{});
        QCOMPARE(Session::defaultBaseline(PresetLibrary{}), CoreConfig{});
    }

    // Opening runs on a worker thread with progress; then the first prediction arrives.
    void opensInTheBackgroundAndPredicts() {
        Session session(onTinyGrid(), onTinyGrid());
        QSignalSpy opening(&session, &Session::databaseOpening);
        QSignalSpy progress(&session, &Session::databaseProgress);
        QSignalSpy opened(&session, &Session::databaseOpened);
        QSignalSpy program(&session, &Session::programChanged);
        QSignalSpy predicted(&session, &Session::predictionReady);

        session.openDatabase(database_);
        QCOMPARE(opening.count(), 1);
        QVERIFY(session.isOpening());
        QVERIFY(!session.hasDatabase()); // not yet: the caller's thread was not blocked
        QVERIFY(opened.wait(30000));
        QVERIFY(!session.isOpening());
        QVERIFY(session.hasDatabase());
        QCOMPARE(session.databasePath(), QFileInfo(database_).absoluteFilePath());
        QCOMPARE(session.programs(), (QStringList{"alpha", "beta"}));
        QCOMPARE(session.program(), QStringLiteral("alpha")); // the first program
        QCOMPARE(program.count(), 1);
        QVERIFY(session.grid() == ParameterGrid(testing::tinyExplorerGrid()));
        QVERIFY(progress.count() >= 1);
        QCOMPARE(progress.last().at(0).toInt(), 5);
        QCOMPARE(progress.last().at(1).toInt(), 5);

        QTRY_COMPARE(predicted.count(), 1);
        const PredictionPtr p = session.prediction();
        QVERIFY(p);
        QCOMPARE(predicted.first().at(0).value<PredictionPtr>(), p);
        QCOMPARE(p->program, std::string("alpha"));
        QCOMPARE(p->regions.size(), std::size_t(3));
        QVERIFY(p->selectedCpi() > 0);
        QCOMPARE(p->targetOnGrid, session.config());
        QVERIFY(p->warnings.empty());
        QCOMPARE(p->accuracy.summary(),
                 std::string("model error 4.0 % on unseen regions, 13.5 % on held-out programs"));

        // Selecting a program predicts again; an unknown one is refused.
        QVERIFY(session.setProgram(QStringLiteral("beta")));
        QTRY_COMPARE(predicted.count(), 2);
        QCOMPARE(session.prediction()->program, std::string("beta"));
        QVERIFY(!session.setProgram(QStringLiteral("gamma")));
        QCOMPARE(session.program(), QStringLiteral("beta"));
    }

    // A one-shot export precomputes only the target's and the baseline's values, and predicts
    // them (and any mix of them) exactly as the whole grid does.
    void openingForTwoConfigurationsPrecomputesOnlyTheirValues() {
        CoreConfig target = onTinyGrid();
        target.set(ParamId::Rob, 64);
        CoreConfig baseline = target;
        baseline.set(ParamId::AluIssue, 4);
        baseline.set(ParamId::LoadQueue, 48);
        Session whole(target, baseline);
        QVERIFY(whole.openDatabaseNow(database_));
        Session cut(target, baseline);
        QVERIFY(cut.openDatabaseNow(database_, nullptr, {target, baseline}));

        const DatabasePredictor& full = whole.explorer()->predictor();
        const DatabasePredictor& part = cut.explorer()->predictor();
        std::size_t fullCombinations = 1, partCombinations = 1;
        for (const ParameterSpec& spec : ParameterSpace::all()) {
            const std::size_t values = target.value(spec.id) == baseline.value(spec.id) ? 1 : 2;
            QCOMPARE(part.grid().size(spec.id), values);
            fullCombinations *= full.grid().size(spec.id);
            partCombinations *= values;
        }
        QVERIFY(partCombinations * 100 < fullCombinations);
        // The sliders still snap to the database's grid.
        QCOMPARE(cut.explorer()->grid(), whole.explorer()->grid());

        CoreConfig mixed = target;
        mixed.set(ParamId::LoadQueue, 48);
        for (const CoreConfig& config : {target, baseline, mixed})
            for (std::size_t r = 0; r < full.regions().size(); ++r)
                QCOMPARE(part.regionCpi(r, config), full.regionCpi(r, config));
        // A value of the database's grid that neither has: not precomputed, refused.
        CoreConfig elsewhere = target;
        for (const double rob : full.grid().values(ParamId::Rob))
            if (!part.grid().find(ParamId::Rob, rob))
                elsewhere.set(ParamId::Rob, rob);
        QVERIFY(elsewhere != target);
        QVERIFY_THROWS_EXCEPTION(ConcordeError, part.regionCpi(0, elsewhere));
        (void)full.regionCpi(0, elsewhere); // which the whole grid predicts
    }

    // While a prediction runs, further changes only mark the state dirty: one more prediction
    // follows, from the latest state, however many changes came in between.
    void predictionsCoalesceAndTheLatestWins() {
        Session session(onTinyGrid(), onTinyGrid());
        QVERIFY(session.openDatabaseNow(database_));
        QSignalSpy predicted(&session, &Session::predictionReady);
        QTRY_COMPARE(predicted.count(), 1);
        predicted.clear();

        const auto grid = testing::tinyExplorerGrid();
        std::mt19937_64 rng(5);
        CoreConfig last = session.config();
        for (int i = 0; i < 50; ++i) { // 50 changes without returning to the event loop
            const ParamId id = i % 2 ? ParamId::Rob : ParamId::AluIssue;
            const auto& values = grid[index(id)];
            session.setParameter(id, values[rng() % values.size()]);
            last = session.config();
        }
        QTRY_VERIFY(!session.isPredicting() && session.prediction() &&
                    session.prediction()->target == last);
        // Nothing is running or waiting: no other prediction is on its way.
        QVERIFY2(predicted.count() <= 2, qPrintable(QString::number(predicted.count())));
        QCOMPARE(session.prediction()->target, last);
        const auto expected = session.explorer()->predict(last, session.baseline(), "alpha");
        QCOMPARE(session.prediction()->targetCpi, expected.targetCpi);
        // Sequence numbers only grow.
        for (int i = 1; i < predicted.count(); ++i)
            QVERIFY(predicted.at(i).at(0).value<PredictionPtr>()->sequence >
                    predicted.at(i - 1).at(0).value<PredictionPtr>()->sequence);
    }

    void recomputeNowIsSynchronous() {
        Session session(onTinyGrid(), onTinyGrid());
        QString error;
        QVERIFY2(session.openDatabaseNow(database_, &error), qPrintable(error));
        CoreConfig target = session.config();
        target.set(ParamId::Rob, target.rob() == 64 ? 128 : 64);
        QSignalSpy predicted(&session, &Session::predictionReady);
        session.setConfig(target); // starts an asynchronous prediction
        session.recomputeNow();
        QCOMPARE(predicted.count(), 1);
        QVERIFY(session.prediction());
        QCOMPARE(session.prediction()->target, target);
        QVERIFY(!session.isPredicting()); // the asynchronous one was dropped
        const PredictionPtr now = session.prediction();
        // Predictions run one at a time: once the next one has arrived, the dropped one has
        // ended too, and it never replaced the synchronous one.
        session.setBaseline(target);
        QTRY_COMPARE(predicted.count(), 2);
        QCOMPARE(session.prediction()->target, target);
        QCOMPARE(session.prediction()->baselineOnGrid, target);
        QVERIFY(session.prediction()->sequence > now->sequence);
    }

    void offGridConfigurationsArePredictedWithAWarning() {
        CoreConfig target = onTinyGrid();
        target.set(ParamId::Rob, 100);
        Session session(target, onTinyGrid());
        QVERIFY(session.openDatabaseNow(database_));
        session.recomputeNow();
        const PredictionPtr p = session.prediction();
        QCOMPARE(p->targetOnGrid.rob(), 128); // nearest of {64, 128} (ties go lower: 96 → 64)
        QVERIFY(!p->warnings.empty());
        QCOMPARE(p->warnings.front().kind, ParameterWarning::Kind::OffGrid);
    }

    void failuresKeepTheSessionUsable() {
        Session session(onTinyGrid(), onTinyGrid());
        QSignalSpy failed(&session, &Session::databaseFailed);

        const QString text = file("notes.sqlite");
        std::ofstream(text.toStdString()) << "just some text\n";
        session.openDatabase(text);
        QVERIFY(failed.wait(10000));
        QCOMPARE(failed.last().at(0).toString(), QFileInfo(text).absoluteFilePath());
        QVERIFY2(!failed.last().at(1).toString().isEmpty(), "a message for the user");
        QVERIFY(!session.hasDatabase());
        QVERIFY(!session.isOpening());

        const QString noise = file("noise.sqlite");
        {
            std::ofstream out(noise.toStdString(), std::ios::binary);
            std::mt19937 rng(3);
            for (int i = 0; i < 8192; ++i)
                out.put(static_cast<char>(rng()));
        }
        QString error;
        QVERIFY(!session.openDatabaseNow(noise, &error));
        QVERIFY(!error.isEmpty());

        // A good database, then a bad one: the good one stays open.
        QVERIFY(session.openDatabaseNow(database_));
        session.openDatabase(file("missing.sqlite"));
        QVERIFY(failed.wait(10000));
        QVERIFY(failed.last().at(1).toString().contains(QStringLiteral("missing.sqlite")));
        QVERIFY(session.hasDatabase());
        QCOMPARE(session.databasePath(), QFileInfo(database_).absoluteFilePath());
    }

    void cancellingAnOpen() {
        Session session;
        QSignalSpy cancelled(&session, &Session::databaseOpenCancelled);
        QSignalSpy opened(&session, &Session::databaseOpened);
        session.openDatabase(database_);
        session.cancelOpening();
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(!session.isOpening());
        QVERIFY(!session.hasDatabase());
        session.cancelOpening(); // nothing to cancel
        QCOMPARE(cancelled.count(), 1);
        // Opens run one at a time: once the next one is open, the cancelled one has ended, and
        // it never announced a database.
        session.openDatabase(database_);
        QVERIFY(opened.wait(30000));
        QCOMPARE(opened.count(), 1);
        QVERIFY(session.hasDatabase());
        QCOMPARE(cancelled.count(), 1);
    }

    void programAndViewBeforeADatabase() {
        Session session;
        QSignalSpy program(&session, &Session::programChanged);
        QSignalSpy view(&session, &Session::viewChanged);
        QVERIFY(session.setProgram(QStringLiteral("beta"))); // remembered for later
        QCOMPARE(program.count(), 1);
        session.setView(QStringLiteral("view_overview"));
        session.setView(QStringLiteral("view_overview"));
        QCOMPARE(view.count(), 1);
        QVERIFY(session.openDatabaseNow(database_));
        QCOMPARE(session.program(), QStringLiteral("beta")); // known: kept
        Session other;
        other.setProgram(QStringLiteral("zeta"));
        QVERIFY(other.openDatabaseNow(database_));
        QCOMPARE(other.program(), QStringLiteral("alpha")); // unknown: the first program
    }

    void themeBelongsToTheSession() {
        Session session;
        QSignalSpy changed(&session.theme(), &ui::Theme::changed);
        QCOMPARE(session.theme().chartThemeName(), QStringLiteral("light"));
        session.theme().setScheme(ui::Theme::Scheme::Dark);
        QCOMPARE(session.theme().chartThemeName(), QStringLiteral("dark"));
        session.theme().setProjector(true);
        QCOMPARE(session.theme().chartThemeName(), QStringLiteral("projector"));
        session.theme().setProjector(true);
        QCOMPARE(changed.count(), 2);
        QVERIFY(session.theme().lineWidth() > 2);
        QVERIFY(session.theme().font().pointSizeF() > QGuiApplication::font().pointSizeF());
    }

    // Issue 23: a session file of the right outline but wrong types was an uncaught
    // nlohmann::json::type_error (SIGABRT). Each is refused with a message naming the file and
    // the field, and the session is unchanged.
    void malformedSessionFilesAreRefusedByField() {
        struct Case {
            const char* json;
            const char* field; // what the message must name
        };
        const Case cases[] = {
            {R"({"format":5,"version":1})", "format"},
            {R"({"format":"concorde-explorer-session","version":"1"})", "version"},
            {R"({"format":"concorde-explorer-session"})", "version"},
            {R"({"format":"concorde-explorer-session","version":1,"theme":{"scheme":3}})",
             "scheme"},
            {R"({"format":"concorde-explorer-session","version":1,"theme":{"projector":"y"}})",
             "projector"},
            {R"({"format":"concorde-explorer-session","version":1,"theme":[]})", "theme"},
            {R"({"format":"concorde-explorer-session","version":1,"program":null})", "program"},
            {R"({"format":"concorde-explorer-session","version":1,"view":1})", "view"},
            {R"({"format":"concorde-explorer-session","version":1,"database":{}})", "database"},
            {R"({"format":"concorde-explorer-session","version":1,"config":{"rob":null}})", "rob"},
            {R"({"format":"concorde-explorer-session","version":1,"baseline":7})", "baseline"},
            {R"([1,2])", "session.json"},
            {R"({"format":"concorde-explorer-session","version":1,"sweep_parameter":3})",
             "sweep_parameter"},
            {R"({"format":"concorde-explorer-session","version":1,"sweep_parameter":"robb"})",
             "sweep_parameter"},
        };
        Session session;
        session.theme().setScheme(ui::Theme::Scheme::Light);
        const CoreConfig config = session.config();
        const QString path = file("session.json");
        for (const Case& c : cases) {
            std::ofstream(path.toStdString()) << c.json;
            QString message;
            QVERIFY2(!ui::SessionFile::load(session, path, &message), c.json);
            QVERIFY2(message.contains(path) && message.contains(QLatin1String(c.field)),
                     qPrintable(QStringLiteral("%1 -> %2").arg(QLatin1String(c.json), message)));
            QCOMPARE(session.config(), config);
            QCOMPARE(session.theme().scheme(), ui::Theme::Scheme::Light);
        }
    }

    // The swept parameter is part of a session: saved, and restored on load.
    void sweptParameterIsSaved() {
        Session session;
        session.setSweptParameter(ParamId::L2Kb);
        const QString path = file("swept.json");
        QString message;
        QVERIFY2(ui::SessionFile::save(session, path, &message), qPrintable(message));
        Session restored;
        QVERIFY(restored.sweptParameter() != ParamId::L2Kb);
        QVERIFY2(ui::SessionFile::load(restored, path, &message), qPrintable(message));
        QCOMPARE(restored.sweptParameter(), ParamId::L2Kb);
    }
};

QTEST_MAIN(SessionTest)
#include "SessionTest.moc"
