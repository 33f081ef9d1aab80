// concorde-explorer: wires presets, a Session and the main window together, or runs the headless
// export. No logic lives here.

#include "HeadlessExport.h"
#include "LastConfiguration.h"
#include "MainWindow.h"
#include "Session.h"
#include "Theme.h"
#include "ViewCatalog.h"
#include "ViewTabs.h"
#include "common/AllocatorPolicy.h"
#include "params/ParameterSpace.h"
#include "params/PresetLibrary.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTextStream>
#include <algorithm>
#include <cstdio>
#include <cstring>

namespace {

void describeApplication() {
    QCoreApplication::setApplicationName(QStringLiteral("concorde-explorer"));
    QCoreApplication::setOrganizationName(QStringLiteral("concorde"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CONCORDE_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("Concorde Explorer"));
    // Ties windows to concorde-explorer.desktop (its icon and name) under Wayland.
    QGuiApplication::setDesktopFileName(QStringLiteral("concorde-explorer"));
}

struct Options {
    QCommandLineOption exportView{QStringLiteral("export"),
                                  QStringLiteral("Render VIEW to the file given by -o without "
                                                 "opening a window, then exit."),
                                  QStringLiteral("VIEW")};
    QCommandLineOption output{{QStringLiteral("o"), QStringLiteral("output")},
                              QStringLiteral("Output of --export: .png, .svg, .pdf (the chart) "
                                             "or .csv (its data)."),
                              QStringLiteral("FILE")};
    QCommandLineOption program{QStringLiteral("program"),
                               QStringLiteral("Select program P (default: the first)."),
                               QStringLiteral("P")};
    QCommandLineOption preset{QStringLiteral("preset"),
                              QStringLiteral("Start the target from preset P (big, n1-like, "
                                             "little, or your own; default: the last one the "
                                             "window had, else n1-like)."),
                              QStringLiteral("P")};
    QCommandLineOption set{QStringLiteral("set"),
                           QStringLiteral("Set one target parameter, after --preset "
                                          "(repeatable), e.g. --set rob=256 --set bp=tage."),
                           QStringLiteral("KEY=VALUE")};
    QCommandLineOption baseline{QStringLiteral("baseline"),
                                QStringLiteral("Compare against preset P (default: the last "
                                               "baseline the window had, else little)."),
                                QStringLiteral("P")};
    QCommandLineOption sweepParameter{QStringLiteral("param"),
                                      QStringLiteral("The parameter the sweep view sweeps "
                                                     "(a key, e.g. rob; default: rob)."),
                                      QStringLiteral("KEY")};
    QCommandLineOption theme{QStringLiteral("theme"),
                             QStringLiteral("Colour scheme: light (default) or dark."),
                             QStringLiteral("light|dark"), QStringLiteral("light")};
    QCommandLineOption view{QStringLiteral("view"),
                            QStringLiteral("Open the window on VIEW (overview, cdf, timeseries, "
                                           "shapley or phases)."),
                            QStringLiteral("VIEW")};
    QCommandLineOption projector{QStringLiteral("projector"),
                                 QStringLiteral("Projector mode: large fonts, thick lines, "
                                                "high contrast (full screen in the window).")};
    QCommandLineOption size{QStringLiteral("size"),
                            QStringLiteral("Size of an exported chart in pixels (default "
                                           "1280x800)."),
                            QStringLiteral("WxH"), QStringLiteral("1280x800")};
    QCommandLineOption noFooter{QStringLiteral("no-footer"),
                                QStringLiteral("Leave out the exported chart's footer (database, "
                                               "model accuracy, date).")};
};

void configureParser(QCommandLineParser& parser, const Options& options) {
    const concorde::ui::ViewCatalog catalog = concorde::ui::ViewCatalog::standard();
    QString views;
    qsizetype width = 0; // the longest name sets the column
    for (const auto& view : catalog.views())
        width = std::max(width, view.id.size());
    for (const auto& view : catalog.views())
        views += QStringLiteral("  %1  %2\n").arg(view.id, -int(width)).arg(view.description);
    parser.setApplicationDescription(
        QStringLiteral(
            "Interactive CPU microarchitecture exploration with analytical-ML CPI models.\n\n"
            "Without a database argument the explorer opens the shipped data/default.sqlite\n"
            "if it is installed.\n\n"
            "Headless export, for scripts and CI (no display needed):\n"
            "  concorde-explorer [DB] --export VIEW [--program P] [--preset P | --set k=v ...]\n"
            "                    [--baseline P] [--param KEY] [--theme light|dark] [--projector]\n"
            "                    [--size WxH] [--no-footer]\n"
            "                    -o FILE.png|.svg|.pdf|.csv\n"
            "The chart has a title line (view, program, target and baseline) and a footer\n"
            "(database, model accuracy, date); a .csv stays plain and FILE.csv.json beside it\n"
            "holds the same context and what each column means.\n"
            "Views:\n%1"
            "It exits with status 2 and a message on an unknown view, program, preset or\n"
            "parameter, a bad value or an unsupported file extension, and with 1 when the\n"
            "file cannot be written.")
            .arg(views));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("database"),
                                 QStringLiteral("Feature database (.sqlite) to open."),
                                 QStringLiteral("[database]"));
    parser.addOptions({options.exportView, options.output, options.program, options.preset,
                       options.set, options.baseline, options.sweepParameter, options.theme,
                       options.view, options.projector, options.size, options.noFooter});
}

bool hasArgument(int argc, char** argv, std::initializer_list<const char*> names) {
    for (int i = 1; i < argc; ++i)
        for (const char* name : names)
            if (std::strcmp(argv[i], name) == 0 ||
                (std::strncmp(argv[i], name, std::strlen(name)) == 0 &&
                 argv[i][std::strlen(name)] == '='))
                return true;
    return false;
}

/// The shipped default database: beside the build tree's sources (build/bin → ../../data), where
/// an install puts it (bin → ../share/concorde), in the XDG data directories (a package's
/// /usr/share/concorde, for a binary run from elsewhere), or in the source tree this was built
/// from.
QString defaultDatabase() {
    const QDir bin(QCoreApplication::applicationDirPath());
    for (const QString& candidate :
         {bin.filePath(QStringLiteral("../../data/default.sqlite")),
          bin.filePath(QStringLiteral("../share/concorde/default.sqlite")),
          QStandardPaths::locate(QStandardPaths::GenericDataLocation,
                                 QStringLiteral("concorde/default.sqlite")),
          QStringLiteral(CONCORDE_DATA_DIR "/default.sqlite")})
        if (QFileInfo(candidate).isFile())
            return QFileInfo(candidate).canonicalFilePath();
    return {};
}

concorde::PresetLibrary loadPresets(QString* error) {
    // Missing or malformed presets should not stop the explorer: report and go on without them.
    try {
        concorde::PresetLibrary library = concorde::PresetLibrary::loadDefault();
        for (const auto& bad : library.rejected()) // the others still load
            std::fprintf(stderr, "concorde-explorer: warning: preset file skipped: %s\n",
                         bad.message.c_str());
        return library;
    } catch (const std::exception& e) {
        *error = QString::fromLocal8Bit(e.what());
        std::fprintf(stderr, "concorde-explorer: presets not loaded: %s\n", e.what());
        return {};
    }
}

} // namespace

int main(int argc, char** argv) {
    concorde::retainFreedMemory();
    // --help and --version must work without a display, and QApplication needs one; so does the
    // headless export, which renders offscreen.
    if (hasArgument(argc, argv, {"-h", "--help", "--help-all", "-v", "--version"})) {
        QCoreApplication app(argc, argv);
        describeApplication();
        QCommandLineParser parser;
        const Options options;
        configureParser(parser, options);
        parser.process(app); // prints and exits
        return 0;
    }
    const bool headless = hasArgument(argc, argv, {"--export"});
    if (headless && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    describeApplication();
    QCommandLineParser parser;
    const Options options;
    configureParser(parser, options);
    parser.process(app);
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        std::fprintf(stderr, "concorde-explorer: expected at most one database, got %lld\n",
                     static_cast<long long>(positional.size()));
        return 2;
    }

    concorde::ui::HeadlessExport::Request request;
    request.database = positional.isEmpty() ? defaultDatabase() : positional.first();
    request.view = parser.value(options.exportView);
    request.output = parser.value(options.output);
    request.program = parser.value(options.program);
    request.preset = parser.value(options.preset);
    request.assignments = parser.values(options.set);
    request.baselinePreset = parser.value(options.baseline);
    request.sweepParameter = parser.value(options.sweepParameter);
    request.theme = parser.value(options.theme);
    request.projector = parser.isSet(options.projector);
    request.size = concorde::ui::HeadlessExport::parseSize(parser.value(options.size));
    request.footer = !parser.isSet(options.noFooter);

    QString presetError;
    const concorde::PresetLibrary presets = loadPresets(&presetError);
    if (headless) {
        QTextStream err(stderr);
        return concorde::ui::HeadlessExport::run(request, presets,
                                                 concorde::ui::ViewCatalog::standard(), err);
    }

    concorde::CoreConfig target, baseline;
    QString error;
    const auto scheme = concorde::ui::Theme::schemeFromName(request.theme);
    if (!concorde::ui::HeadlessExport::configure(request, presets, target, baseline, &error) ||
        !scheme) {
        std::fprintf(stderr, "concorde-explorer: %s\n",
                     qPrintable(scheme ? error : QStringLiteral("unknown theme (light or dark)")));
        return 2;
    }
    // Nothing asked for on the command line: reopen the configuration the window last had.
    if (!parser.isSet(options.preset) && !parser.isSet(options.set) &&
        !parser.isSet(options.baseline))
        concorde::ui::LastConfiguration::load(target, baseline);
    concorde::ui::Session session(target, baseline);
    QObject::connect(&app, &QCoreApplication::aboutToQuit, &session, [&session] {
        concorde::ui::LastConfiguration::save(session.config(), session.baseline());
    });
    session.theme().setScheme(*scheme);
    session.theme().setProjector(request.projector);
    if (!request.program.isEmpty())
        session.setProgram(request.program);
    if (!request.sweepParameter.isEmpty()) {
        const auto swept = concorde::ParameterSpace::find(request.sweepParameter.toStdString());
        if (!swept) {
            std::fprintf(stderr, "concorde-explorer: unknown parameter '%s' for --param\n",
                         qPrintable(request.sweepParameter));
            return 2;
        }
        session.setSweptParameter(*swept);
    }
    concorde::ui::MainWindow window(session, presets);
    if (parser.isSet(options.view))
        window.views().showView(parser.value(options.view)); // a ViewCatalog id
    window.show();

    if (!request.database.isEmpty())
        window.openDatabase(request.database);
    if (!presetError.isEmpty())
        QMessageBox::warning(&window, QObject::tr("Presets not loaded"),
                             QObject::tr("The parameter presets could not be loaded, so the "
                                         "Presets menu is empty:\n\n%1")
                                 .arg(presetError));
    return app.exec();
}
