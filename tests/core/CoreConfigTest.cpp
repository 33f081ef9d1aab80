// Parameter space, CoreConfig validation, --set parsing and the shipped presets.
#include "params/CoreConfig.h"

#include "../support/ErrorCapture.h"
#include "common/ConcordeError.h"
#include "params/PresetLibrary.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace concorde;
using concorde::testing::errorOf;

class CoreConfigTest : public QObject {
    Q_OBJECT

private slots:
    void spaceHasTwentyParametersInIdOrder() {
        const auto all = ParameterSpace::all();
        QCOMPARE(all.size(), std::size_t(20));
        for (std::size_t i = 0; i < all.size(); ++i) {
            QCOMPARE(index(all[i].id), i);
            QVERIFY(!all[i].key.empty());
            QVERIFY(!all[i].meaning.empty());
            QVERIFY2(std::is_sorted(all[i].grid.begin(), all[i].grid.end()), all[i].key.c_str());
            QVERIFY(all[i].grid.front() >= all[i].min && all[i].grid.back() <= all[i].max);
            QVERIFY(all[i].defaultValue >= all[i].min && all[i].defaultValue <= all[i].max);
        }
    }

    void designRangesAndGrids() {
        const auto& rob = ParameterSpace::spec(ParamId::Rob);
        QCOMPARE(rob.key, std::string("rob"));
        QCOMPARE(rob.min, 8.0);
        QCOMPARE(rob.max, 1024.0);
        QCOMPARE(rob.grid, (std::vector<double>{16, 32, 48, 64, 96, 128, 192, 256, 384, 512}));
        const auto& lq = ParameterSpace::spec(ParamId::LoadQueue);
        QCOMPARE(lq.grid, (std::vector<double>{8, 12, 16, 24, 32, 48, 64, 96, 128}));
        const auto& fetch = ParameterSpace::spec(ParamId::FetchWidth);
        QCOMPARE(fetch.grid, (std::vector<double>{1, 2, 3, 4, 6, 8, 12, 16}));
        QCOMPARE(ParameterSpace::spec(ParamId::DecodeWidth).grid, fetch.grid);
        QCOMPARE(ParameterSpace::spec(ParamId::L2Kb).grid, (std::vector<double>{512, 1024, 2048}));
        QCOMPARE(ParameterSpace::spec(ParamId::BranchPredictor).choices,
                 (std::vector<std::string>{"simple", "tage"}));
        QCOMPARE(ParameterSpace::spec(ParamId::LoadPipes).min, 0.0);
        int groups[3] = {};
        for (const auto& spec : ParameterSpace::all())
            ++groups[static_cast<int>(spec.group)];
        QCOMPARE(groups[0] + groups[1] + groups[2], 20);
        QVERIFY(groups[0] > 0 && groups[1] > 0 && groups[2] > 0);
    }

    void setAcceptsValuesInRange() {
        CoreConfig config;
        config.set(ParamId::Rob, 1024);
        QCOMPARE(config.rob(), 1024);
        config.applyAssignment("lq=4");
        QCOMPARE(config.loadQueue(), 4);
        config.applyAssignment("bp=simple");
        QCOMPARE(config.branchPredictor(), BranchPredictorKind::Simple);
        config.applyAssignment("bp_miss_pct=2.5");
        QCOMPARE(config.bpMissPct(), 2.5);
        config.applyAssignment("load_pipes=0");
        QCOMPARE(config.loadPipes(), 0);
    }

    void outOfRangeNamesKeyAndRange() {
        CoreConfig config;
        const QString low = errorOf([&] { config.applyAssignment("rob=7"); });
        QVERIFY2(low.contains("'rob'") && low.contains("8–1024"), qPrintable(low));
        const QString high = errorOf([&] { config.set(ParamId::L2Kb, 8192); });
        QVERIFY2(high.contains("'l2_kb'") && high.contains("256–4096"), qPrintable(high));
        const QString frac = errorOf([&] { config.applyAssignment("rob=64.5"); });
        QVERIFY2(frac.contains("whole numbers"), qPrintable(frac));
        const QString choice = errorOf([&] { config.applyAssignment("bp=perceptron"); });
        QVERIFY2(choice.contains("simple, tage"), qPrintable(choice));
        QCOMPARE(config.rob(), CoreConfig().rob()); // failed sets change nothing
    }

    // Regression (fuzz_session, 2026-11-27): a session file with "bp": 1e70 reached
    // ParameterSpec::formatValue, which cast the double to an index (undefined behaviour, caught
    // by UBSan). A value that is not a choice's index prints as a number, and the configuration
    // refuses it with a bad-input error naming the choices.
    void choiceOutOfRangeFormatsAsANumber() {
        const ParameterSpec& bp = ParameterSpace::spec(ParamId::BranchPredictor);
        QCOMPARE(bp.formatValue(1), std::string("tage"));
        QCOMPARE(bp.formatValue(0), std::string("simple"));
        QCOMPARE(bp.formatValue(1.0245555555555556e70), std::string("1.02456e+70"));
        QCOMPARE(bp.formatValue(-1), std::string("-1"));
        QCOMPARE(bp.formatValue(0.5), std::string("0.5"));
        QCOMPARE(bp.formatValue(2), std::string("2"));
        QCOMPARE(bp.formatValue(std::nan("")), std::string("nan"));
        CoreConfig config;
        const QString huge = errorOf([&] { config.set(ParamId::BranchPredictor, 1.0245e70); });
        QVERIFY2(huge.contains("'bp'") && huge.contains("simple, tage"), qPrintable(huge));
        try {
            config.set(ParamId::BranchPredictor, 1.0245e70);
            QFAIL("expected an error");
        } catch (const ConcordeError& e) {
            QCOMPARE(e.exitCode(), 2);
        }
    }

    void unknownKeyAndMalformedAssignment() {
        CoreConfig config;
        const QString unknown = errorOf([&] { config.applyAssignment("robb=64"); });
        QVERIFY2(unknown.contains("unknown parameter 'robb'") && unknown.contains("commit_width"),
                 qPrintable(unknown));
        QVERIFY(errorOf([&] { config.applyAssignment("rob"); }).contains("key=value"));
        QVERIFY(errorOf([&] { config.applyAssignment("rob=abc"); }).contains("not a number"));
        QVERIFY(errorOf([&] { config.applyAssignment("rob="); }).contains("not a number"));
        try {
            config.applyAssignment("rob=0");
            QFAIL("expected an error");
        } catch (const ConcordeError& e) {
            QCOMPARE(e.exitCode(), 2);
        }
    }

    void jsonRoundTrip() {
        CoreConfig config;
        config.applyAssignment("rob=256");
        config.applyAssignment("bp=simple");
        config.applyAssignment("bp_miss_pct=5");
        const nlohmann::json json = config.toJson();
        QCOMPARE(json["bp"].get<std::string>(), std::string("simple"));
        QCOMPARE(CoreConfig::fromJson(json, true, "test"), config);
        nlohmann::json partial = {{"rob", 64}};
        QVERIFY(errorOf([&] {
                    CoreConfig::fromJson(partial, true, "p.json");
                }).contains("p.json: parameter 'commit_width' is missing"));
        QCOMPARE(CoreConfig::fromJson(partial, false, "p.json").rob(), 64);
        nlohmann::json bad = {{"rob", 4}};
        QVERIFY(errorOf([&] { CoreConfig::fromJson(bad, false, "b.json"); }).contains("b.json"));
    }

    void nearestGridIndex() {
        const auto& rob = ParameterSpace::spec(ParamId::Rob);
        QCOMPARE(rob.nearestGridIndex(130), std::size_t(5)); // 128
        QCOMPARE(rob.nearestGridIndex(1000), std::size_t(9));
        QCOMPARE(rob.nearestGridIndex(8), std::size_t(0));
        QCOMPARE(rob.formatWithUnit(128), std::string("128 entries"));
        QCOMPARE(ParameterSpace::spec(ParamId::BranchPredictor).formatWithUnit(1),
                 std::string("tage"));
    }

    void shippedPresetsLoad() {
        const auto library = PresetLibrary::loadFrom({CONCORDE_SOURCE_DIR "/resources/presets"});
        QCOMPARE(library.presets().size(), std::size_t(3));
        const Preset& big = library.require("big");
        for (const auto& spec : ParameterSpace::all()) {
            if (spec.id == ParamId::BranchPredictor || spec.id == ParamId::BpMissPct)
                continue;
            QVERIFY2(big.config.value(spec.id) == spec.grid.back(), spec.key.c_str());
        }
        QCOMPARE(big.config.branchPredictor(), BranchPredictorKind::Simple);
        QCOMPARE(big.config.bpMissPct(), 0.0);
        const Preset& n1 = library.require("n1-like");
        QCOMPARE(n1.config.rob(), 128);
        QCOMPARE(n1.config.l1dKb(), 64);
        QCOMPARE(n1.config.branchPredictor(), BranchPredictorKind::Tage);
        for (const auto& spec : ParameterSpace::all())
            QVERIFY2(n1.sources.count(spec.key) == 1, spec.key.c_str()); // every value sourced
        const Preset& little = library.require("little");
        QVERIFY(little.config.rob() < n1.config.rob());
        QVERIFY(errorOf([&] { library.require("huge"); }).contains("big, little, n1-like"));
    }

    void presetsAreOnTheDefaultGrid() {
        const auto library = PresetLibrary::loadFrom({CONCORDE_SOURCE_DIR "/resources/presets"});
        for (const auto& preset : library.presets())
            for (const auto& spec : ParameterSpace::all()) {
                const double v = preset.config.value(spec.id);
                QVERIFY2(std::find(spec.grid.begin(), spec.grid.end(), v) != spec.grid.end(),
                         (preset.name + ": " + spec.key).c_str());
            }
    }

    void savedPresetRoundTripsAndUserOverrides() {
        QTemporaryDir dir;
        Preset mine;
        mine.name = "mine";
        mine.description = "test";
        mine.config.applyAssignment("rob=48");
        const std::filesystem::path file = dir.filePath("mine.json").toStdString();
        mine.save(file);
        QCOMPARE(Preset::load(file).config, mine.config);
        // A user preset with a shipped name replaces it.
        Preset override = mine;
        override.name = "big";
        override.save(dir.filePath("big.json").toStdString());
        const auto library = PresetLibrary::loadFrom(
            {CONCORDE_SOURCE_DIR "/resources/presets", dir.path().toStdString()});
        QCOMPARE(library.require("big").config.rob(), 48);
    }

    void malformedPresetFiles() {
        QTemporaryDir dir;
        const auto write = [&](const char* name, const char* text) {
            std::ofstream(dir.filePath(name).toStdString()) << text;
            return dir.filePath(name).toStdString();
        };
        QVERIFY(errorOf([&] {
                    Preset::load(write("a.json", "{ not json"));
                }).contains("not valid JSON"));
        QVERIFY(errorOf([&] {
                    Preset::load(write("b.json", "{\"name\": \"b\"}"));
                }).contains("no \"parameters\""));
        QVERIFY(errorOf([&] {
                    Preset::load(dir.filePath("missing.json").toStdString());
                }).contains("cannot open"));
    }

    // Issue 23: one malformed user preset ("name": null) made every command fail with an
    // nlohmann type error. It is skipped and listed; asking for it by name says why.
    void malformedUserPresetIsSkippedUnlessAskedFor() {
        QTemporaryDir dir;
        std::ofstream(dir.filePath("broken.json").toStdString())
            << R"({"name": null, "parameters": {"rob": 64}})";
        std::ofstream(dir.filePath("typo.json").toStdString())
            << R"({"name": "typo", "description": 3, "parameters": {}})";
        Preset mine;
        mine.name = "mine";
        mine.save(dir.filePath("mine.json").toStdString());
        const auto library = PresetLibrary::loadFrom(
            {CONCORDE_SOURCE_DIR "/resources/presets", dir.path().toStdString()});
        QCOMPARE(library.presets().size(), std::size_t(4)); // the shipped three and mine
        QCOMPARE(library.require("n1-like").config.rob(), 128);
        QVERIFY(library.find("mine"));
        QCOMPARE(library.rejected().size(), std::size_t(2));
        const std::string first = library.rejected()[0].message;
        QVERIFY2(first.find("broken.json") != std::string::npos &&
                     first.find("\"name\"") != std::string::npos &&
                     first.find("null") != std::string::npos,
                 first.c_str());
        const std::string second = library.rejected()[1].message;
        QVERIFY2(second.find("typo.json") != std::string::npos &&
                     second.find("\"description\"") != std::string::npos,
                 second.c_str());
        const QString asked = errorOf([&] { library.require("broken"); });
        QVERIFY2(asked.contains("broken.json") && asked.contains("\"name\""), qPrintable(asked));
    }
};

QTEST_APPLESS_MAIN(CoreConfigTest)
#include "CoreConfigTest.moc"
