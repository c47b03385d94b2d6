//! Columnar copies of batch files: a games, moves, side or summary CSV
//! converted to Parquet (`selfplay --format parquet`, `senat convert`), so
//! that pandas, polars or Arrow read typed columns without parsing text.
//!
//! A column's type is inferred from all its cells: every non-empty cell a
//! canonical `i64` (`-3`, not `+3` or `03`): `INT64`; a canonical `u64`
//! (seeds beyond `i64::MAX`): `INT64` annotated unsigned; a finite decimal
//! number (integers among them at most 2^53, so each is exact): `DOUBLE`;
//! anything else, and a column with no non-empty cell: UTF-8 text. An empty
//! cell is a null in every column. The `#` lines before the header (the
//! batch identity, [`super::identity`]) go into the file's key-value
//! metadata: the first as [`IDENTITY_KEY`], any others, one per line, as
//! [`COMMENTS_KEY`]; a batch's summary file, which has no `#` line, gets
//! its games file's identity.
//!
//! A batch is still played into CSV files (`PATH.partial`, resumable,
//! merged as ever): [`prepare`] opens the Parquet outputs before the first
//! game and names the CSV files to play into, [`Pending::finish`] converts
//! them once committed. The input is read twice (types, then rows, in row
//! groups of at most [`ROW_GROUP`] rows and [`GROUP_BYTES`] bytes), so
//! memory stays flat whatever its size.
//!
//! This module never changes a CSV cell's value (only its type), never
//! overwrites a file unless asked to, writes only through
//! [`super::output::OutFile`], and removes a CSV only after its
//! Parquet copy is committed, and only when `--format parquet` says so.

use super::output::{self, IfExists, OutFile};
use super::{Error, Existing};
use parquet::basic::{Compression, IntType, LogicalType, Repetition, Type as Physical};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::record::Field;
use parquet::schema::types::Type;
use std::fmt;
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The metadata key of the batch identity line (`# senat-batch v2 …`,
/// without its line end).
pub const IDENTITY_KEY: &str = "senat.identity";

/// The metadata key of the other `#` lines before the header, one per line.
pub const COMMENTS_KEY: &str = "senat.comments";

/// Rows per Parquet row group, at most.
pub const ROW_GROUP: usize = 1 << 18;

/// Bytes of cells per Parquet row group, at most (about: the row that
/// crosses it ends the group), so that memory stays flat for wide rows
/// (Sénat's games rows are some 1,700 bytes).
pub const GROUP_BYTES: usize = 64 << 20;

/// Which files a batch writes (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileFormat {
    /// CSV files, as named (the default).
    Csv,
    /// Parquet files only: each output played into its CSV, converted,
    /// and the CSV removed.
    Parquet,
    /// Both: the CSV kept beside its Parquet copy.
    Both,
}

impl FileFormat {
    /// Parses `csv`, `parquet` or `csv,parquet` (either order).
    pub fn parse(s: &str) -> Result<FileFormat, Error> {
        match s {
            "csv" => Ok(FileFormat::Csv),
            "parquet" => Ok(FileFormat::Parquet),
            "csv,parquet" | "parquet,csv" => Ok(FileFormat::Both),
            // The command line names the flag and the value before it.
            _ => Err(Error::Invalid("expected csv, parquet or csv,parquet".into())),
        }
    }

    /// The CSV file an output `path` is played into: `path` itself for
    /// CSV; for both, `path` with the extension `.csv` (kept); for Parquet
    /// alone, the Parquet file's name with `.csv` added (`g.parquet.csv`,
    /// removed at the end), so that a CSV of another run is never touched.
    pub fn csv_path(self, path: &Path) -> PathBuf {
        match self {
            FileFormat::Csv => path.to_path_buf(),
            FileFormat::Both => path.with_extension("csv"),
            FileFormat::Parquet => {
                let mut s = path.with_extension("parquet").into_os_string();
                s.push(".csv");
                PathBuf::from(s)
            }
        }
    }

    /// The Parquet file of an output `path` (`path` with the extension
    /// `.parquet`), if this format writes one.
    pub fn parquet_path(self, path: &Path) -> Option<PathBuf> {
        (self != FileFormat::Csv).then(|| path.with_extension("parquet"))
    }
}

/// Why a CSV cannot be converted, or a Parquet output not prepared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConvertError {
    /// The file holds no header line.
    Empty,
    /// Not a file of a batch (`senat convert` converts only those).
    NotBatch,
    /// The header names a column twice, or a column with no name.
    Header(String),
    /// A line that the CSV reader refuses, or with another number of
    /// fields than the header.
    Row {
        /// 1-based line number in the file.
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// The Parquet library refused (writing or reading back).
    Parquet(String),
    /// `--format parquet` to a special file (a Parquet file is written
    /// after its CSV, which cannot be beside a device).
    Special,
    /// `--resume` of a finished Parquet output whose CSV is gone.
    NothingToResume {
        /// The CSV file that would be continued.
        csv: PathBuf,
    },
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConvertError::Empty => f.write_str("no header line"),
            ConvertError::NotBatch => f.write_str(
                "not a senat batch file (its first line is neither a `# senat-batch` identity line nor the header \
                 of a summary file)",
            ),
            ConvertError::Header(m) => write!(f, "bad header: {m}"),
            ConvertError::Row { line, message } => write!(f, "line {line}: {message}"),
            ConvertError::Parquet(m) => write!(f, "parquet: {m}"),
            ConvertError::Special => f.write_str(
                "a Parquet output must be a regular file (it is written after its CSV); use --format csv to write \
                 through to a device or a pipe",
            ),
            ConvertError::NothingToResume { csv } => write!(
                f,
                "cannot resume: this Parquet file is finished and its CSV {} (or .partial) is gone; --resume \
                 continues only the CSV a Parquet run plays into; pass --force to play the batch again",
                csv.display()
            ),
        }
    }
}

impl std::error::Error for ConvertError {}

fn pq(e: parquet::errors::ParquetError) -> ConvertError {
    ConvertError::Parquet(e.to_string())
}

/// The type of a Parquet column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnType {
    /// Signed 64-bit integers.
    Int64,
    /// Unsigned 64-bit integers (`INT64` annotated `UINT_64`).
    UInt64,
    /// 64-bit floating point.
    Double,
    /// UTF-8 text.
    Text,
}

impl ColumnType {
    /// The type's name in messages (`int64`, `uint64`, `double`, `utf8`).
    pub fn name(self) -> &'static str {
        match self {
            ColumnType::Int64 => "int64",
            ColumnType::UInt64 => "uint64",
            ColumnType::Double => "double",
            ColumnType::Text => "utf8",
        }
    }
}

/// What a CSV holds: its `#` lines, columns and rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Converted {
    /// The key-value metadata written ([`IDENTITY_KEY`], [`COMMENTS_KEY`]).
    pub metadata: Vec<(String, String)>,
    /// The columns, in order.
    pub columns: Vec<(String, ColumnType)>,
    /// Data rows.
    pub rows: u64,
}

/// What the cells of a column seen so far allow.
#[derive(Clone, Copy, Debug)]
struct Infer {
    int: bool,
    uint: bool,
    double: bool,
    any: bool,
}

impl Infer {
    const NEW: Infer = Infer { int: true, uint: true, double: true, any: false };

    fn see(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        self.any = true;
        if self.int && !is_i64(s) {
            self.int = false;
        }
        if self.uint && !is_u64(s) {
            self.uint = false;
        }
        if self.double && !is_double(s) {
            self.double = false;
        }
    }

    fn kind(self) -> ColumnType {
        match self {
            Infer { any: false, .. } => ColumnType::Text,
            Infer { int: true, .. } => ColumnType::Int64,
            Infer { uint: true, .. } => ColumnType::UInt64,
            Infer { double: true, .. } => ColumnType::Double,
            _ => ColumnType::Text,
        }
    }
}

fn is_i64(s: &str) -> bool {
    s.parse::<i64>().is_ok_and(|n| n.to_string() == s)
}

fn is_u64(s: &str) -> bool {
    s.parse::<u64>().is_ok_and(|n| n.to_string() == s)
}

/// A finite decimal number that a double holds exactly enough: digits,
/// sign, point and exponent only (no `inf`, `NaN`), and an integer at most
/// 2^53 in size.
fn is_double(s: &str) -> bool {
    if !s.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.' | b'e' | b'E')) {
        return false;
    }
    let Ok(v) = s.parse::<f64>() else { return false };
    let integer = !s.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'));
    let exact = || s.trim_start_matches(['+', '-']).parse::<u64>().is_ok_and(|n| n <= 1 << 53);
    v.is_finite() && (!integer || exact())
}

/// The `#` lines before the header (without line ends), the header and
/// the reader of the rows after it; `lines` counts the lines consumed.
fn split_head<R: BufRead>(mut r: R) -> Result<(Vec<String>, csv::Reader<R>, u64), ConvertError> {
    let mut comments = Vec::new();
    let mut lines = 0;
    loop {
        let buf = r.fill_buf().map_err(|e| ConvertError::Row { line: lines + 1, message: e.to_string() })?;
        if buf.first() != Some(&b'#') {
            break;
        }
        let mut line = Vec::new();
        r.read_until(b'\n', &mut line).map_err(|e| ConvertError::Row { line: lines + 1, message: e.to_string() })?;
        lines += 1;
        let text =
            String::from_utf8(line).map_err(|_| ConvertError::Row { line: lines, message: "not UTF-8".into() })?;
        comments.push(text.trim_end_matches(['\n', '\r']).to_string());
    }
    let rdr = csv::ReaderBuilder::new().has_headers(true).flexible(false).from_reader(r);
    Ok((comments, rdr, lines))
}

fn row_err(e: &csv::Error, lines: u64) -> ConvertError {
    let line = e.position().map_or(lines + 1, |p| p.line() + lines);
    let message = match e.kind() {
        csv::ErrorKind::UnequalLengths { expected_len, len, .. } => {
            format!("{len} fields instead of the header's {expected_len}")
        }
        _ => e.to_string(),
    };
    ConvertError::Row { line, message }
}

/// The header, checked: at least one column, every name non-empty and
/// distinct.
fn header(rdr: &mut csv::Reader<impl Read>, lines: u64) -> Result<Vec<String>, ConvertError> {
    let h = rdr.headers().map_err(|e| row_err(&e, lines))?.clone();
    if h.is_empty() || (h.len() == 1 && h[0].is_empty()) {
        return Err(ConvertError::Empty);
    }
    let names: Vec<String> = h.iter().map(str::to_string).collect();
    for (i, n) in names.iter().enumerate() {
        if n.is_empty() {
            return Err(ConvertError::Header(format!("column {} has no name", i + 1)));
        }
        if names[..i].contains(n) {
            return Err(ConvertError::Header(format!("column `{n}` appears twice")));
        }
    }
    Ok(names)
}

/// Whether a file with these `#` lines and this header is a batch's:
/// its first line a batch identity (Sénat's or the other games'), or its
/// header a summary file's.
pub fn is_batch(comments: &[String], header: &[String]) -> bool {
    if let Some(first) = comments.first() {
        return ["# senat-batch ", "# game-batch "].iter().any(|m| first.starts_with(m));
    }
    let h: Vec<&str> = header.iter().map(String::as_str).collect();
    let lab = crate::games::batch::SUMMARY_HEADER;
    let vary = crate::games::batch::VARY_SUMMARY_COLUMNS;
    // The other games' summaries before their `capped` column, and with
    // their value-loss columns (`vary=`), too.
    h == crate::stats::SUMMARY_HEADER
        || h == lab
        || h == lab[..lab.len() - 1]
        || (h.len() == lab.len() + vary.len() && h[..lab.len()] == lab && h[lab.len()..] == vary)
        || h == crate::arena::SUMMARY_HEADER
}

/// Converts a CSV to Parquet: `open` opens the CSV (twice: once to infer
/// the column types, once to write the rows), `out` receives the Parquet
/// file. With `batch_only`, a file that is not a batch's ([`is_batch`]) is
/// refused before anything is written. `identity`: the identity line to
/// store when the file has no `#` line (a summary file, whose batch's
/// identity is its games file's).
pub fn convert_with<R: BufRead, W: Write + Send>(
    mut open: impl FnMut() -> io::Result<R>,
    out: W,
    batch_only: bool,
    identity: Option<&str>,
) -> Result<Converted, ConvertError> {
    let io_err = |e: io::Error| ConvertError::Row { line: 1, message: e.to_string() };
    // Pass 1: the types.
    let (comments, mut rdr, lines) = split_head(open().map_err(io_err)?)?;
    let names = header(&mut rdr, lines)?;
    if batch_only && !is_batch(&comments, &names) {
        return Err(ConvertError::NotBatch);
    }
    let mut infer = vec![Infer::NEW; names.len()];
    let mut rows = 0u64;
    let mut rec = csv::StringRecord::new();
    while rdr.read_record(&mut rec).map_err(|e| row_err(&e, lines))? {
        for (i, cell) in rec.iter().enumerate() {
            infer[i].see(cell);
        }
        rows += 1;
    }
    let columns: Vec<(String, ColumnType)> = names.into_iter().zip(infer.iter().map(|i| i.kind())).collect();
    let mut metadata = Vec::new();
    if let Some(first) = comments.first().map(String::as_str).or(identity) {
        metadata.push((IDENTITY_KEY.to_string(), first.to_string()));
    }
    if comments.len() > 1 {
        metadata.push((COMMENTS_KEY.to_string(), comments[1..].join("\n")));
    }
    // Pass 2: the rows.
    let schema = Arc::new(schema(&columns).map_err(pq)?);
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_created_by(format!("senat {}", env!("CARGO_PKG_VERSION")))
        .set_key_value_metadata(Some(metadata.iter().map(|(k, v)| KeyValue::new(k.clone(), v.clone())).collect()))
        .build();
    let mut writer = SerializedFileWriter::new(out, schema, Arc::new(props)).map_err(pq)?;
    let (_, mut rdr, _) = split_head(open().map_err(io_err)?)?;
    rdr.headers().map_err(|e| row_err(&e, lines))?;
    let mut group = Group::new(&columns);
    let mut seen = 0u64;
    while rdr.read_record(&mut rec).map_err(|e| row_err(&e, lines))? {
        seen += 1;
        if seen > rows || rec.len() != columns.len() {
            return Err(ConvertError::Row { line: lines + 1 + seen, message: "the file changed while read".into() });
        }
        group.push(&rec);
        if group.len == ROW_GROUP || group.bytes >= GROUP_BYTES {
            group.write(&mut writer)?;
        }
    }
    if seen != rows {
        return Err(ConvertError::Row { line: lines + 1 + seen, message: "the file changed while read".into() });
    }
    if group.len > 0 || rows == 0 {
        group.write(&mut writer)?;
    }
    writer.close().map_err(pq)?;
    Ok(Converted { metadata, columns, rows })
}

/// Converts CSV bytes to Parquet bytes (any CSV, batch or not).
pub fn convert_bytes(csv: &[u8]) -> Result<(Vec<u8>, Converted), ConvertError> {
    let mut out = Vec::new();
    let c = convert_with(|| Ok(csv), &mut out, false, None)?;
    Ok((out, c))
}

fn schema(columns: &[(String, ColumnType)]) -> parquet::errors::Result<Type> {
    let mut fields = Vec::with_capacity(columns.len());
    for (name, kind) in columns {
        let b = match kind {
            ColumnType::Int64 => Type::primitive_type_builder(name, Physical::INT64),
            ColumnType::UInt64 => Type::primitive_type_builder(name, Physical::INT64)
                .with_logical_type(Some(LogicalType::Integer(IntType { bit_width: 64, is_signed: false }))),
            ColumnType::Double => Type::primitive_type_builder(name, Physical::DOUBLE),
            ColumnType::Text => {
                Type::primitive_type_builder(name, Physical::BYTE_ARRAY).with_logical_type(Some(LogicalType::String))
            }
        };
        fields.push(Arc::new(b.with_repetition(Repetition::OPTIONAL).build()?));
    }
    Type::group_type_builder("schema").with_fields(fields).build()
}

/// The values of one column in a row group.
enum Values {
    Int(Vec<i64>),
    Double(Vec<f64>),
    Text(Vec<ByteArray>),
}

/// A row group being filled: each column's non-null values and its
/// definition levels (1: a value, 0: null).
struct Group {
    kinds: Vec<ColumnType>,
    values: Vec<Values>,
    defs: Vec<Vec<i16>>,
    len: usize,
    /// Bytes of the cells added.
    bytes: usize,
}

impl Group {
    fn new(columns: &[(String, ColumnType)]) -> Group {
        let kinds: Vec<ColumnType> = columns.iter().map(|c| c.1).collect();
        let mut g = Group { values: Vec::new(), defs: vec![Vec::new(); kinds.len()], kinds, len: 0, bytes: 0 };
        g.clear();
        g
    }

    fn clear(&mut self) {
        self.values = self
            .kinds
            .iter()
            .map(|k| match k {
                ColumnType::Int64 | ColumnType::UInt64 => Values::Int(Vec::new()),
                ColumnType::Double => Values::Double(Vec::new()),
                ColumnType::Text => Values::Text(Vec::new()),
            })
            .collect();
        self.defs.iter_mut().for_each(Vec::clear);
        self.len = 0;
        self.bytes = 0;
    }

    /// Adds a row (its cells of the inferred types: pass 1 checked them).
    fn push(&mut self, rec: &csv::StringRecord) {
        self.bytes += rec.as_slice().len();
        for (i, cell) in rec.iter().enumerate() {
            if cell.is_empty() {
                self.defs[i].push(0);
                continue;
            }
            self.defs[i].push(1);
            match (&mut self.values[i], self.kinds[i]) {
                (Values::Int(v), ColumnType::UInt64) => v.push(cell.parse::<u64>().unwrap_or_default() as i64),
                (Values::Int(v), _) => v.push(cell.parse().unwrap_or_default()),
                (Values::Double(v), _) => v.push(cell.parse().unwrap_or_default()),
                (Values::Text(v), _) => v.push(ByteArray::from(cell)),
            }
        }
        self.len += 1;
    }

    fn write<W: Write + Send>(&mut self, w: &mut SerializedFileWriter<W>) -> Result<(), ConvertError> {
        let mut rg = w.next_row_group().map_err(pq)?;
        let mut i = 0;
        while let Some(mut col) = rg.next_column().map_err(pq)? {
            let defs = Some(&self.defs[i][..]);
            match &self.values[i] {
                Values::Int(v) => col.typed::<Int64Type>().write_batch(v, defs, None),
                Values::Double(v) => col.typed::<DoubleType>().write_batch(v, defs, None),
                Values::Text(v) => col.typed::<ByteArrayType>().write_batch(v, defs, None),
            }
            .map_err(pq)?;
            col.close().map_err(pq)?;
            i += 1;
        }
        rg.close().map_err(pq)?;
        self.clear();
        Ok(())
    }
}

/// A Parquet file read back: its key-value metadata, columns and rows
/// (each cell as the CSV would write it; `None`: null).
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The key-value metadata.
    pub metadata: Vec<(String, String)>,
    /// The columns, in order.
    pub columns: Vec<(String, ColumnType)>,
    /// The rows.
    pub rows: Vec<Vec<Option<String>>>,
}

/// Reads a Parquet file written by [`convert_with`] (tests, fuzzing and
/// checks; the whole file in memory).
pub fn read_table(bytes: Vec<u8>) -> Result<Table, ConvertError> {
    let reader = SerializedFileReader::new(bytes::Bytes::from(bytes)).map_err(pq)?;
    let meta = reader.metadata().file_metadata();
    let metadata = meta
        .key_value_metadata()
        .map(|kv| kv.iter().map(|k| (k.key.clone(), k.value.clone().unwrap_or_default())).collect())
        .unwrap_or_default();
    let mut columns = Vec::new();
    for f in meta.schema().get_fields() {
        let info = f.get_basic_info();
        let kind = match (f.get_physical_type(), info.logical_type_ref()) {
            (Physical::INT64, Some(LogicalType::Integer(IntType { is_signed: false, .. }))) => ColumnType::UInt64,
            (Physical::INT64, _) => ColumnType::Int64,
            (Physical::DOUBLE, _) => ColumnType::Double,
            (Physical::BYTE_ARRAY, _) => ColumnType::Text,
            (t, _) => return Err(ConvertError::Parquet(format!("column `{}` of type {t}", f.name()))),
        };
        columns.push((f.name().to_string(), kind));
    }
    let mut rows = Vec::new();
    for row in reader.get_row_iter(None).map_err(pq)? {
        let row = row.map_err(pq)?;
        let cells = row
            .get_column_iter()
            .map(|(_, v)| match v {
                Field::Null => None,
                Field::Long(n) => Some(n.to_string()),
                Field::ULong(n) => Some(n.to_string()),
                Field::Double(x) => Some(x.to_string()),
                Field::Str(s) => Some(s.clone()),
                other => Some(other.to_string()),
            })
            .collect();
        rows.push(cells);
    }
    Ok(Table { metadata, columns, rows })
}

/// `senat convert`: converts the batch CSV `input` into the Parquet file
/// `out` (written through [`OutFile`]: `PATH.partial`, then renamed), once
/// the file is checked by `check` as `merge` and `--resume` read it
/// ([`crate::catalog::check_batch_file`]: its header against its identity
/// line, every games row, no row cut short).
pub fn convert(
    input: &Path,
    out: &Path,
    if_exists: IfExists,
    check: fn(&Path) -> Result<(), Error>,
) -> Result<Converted, Error> {
    output::check_distinct(&[("the input", input)], &[("--out", out)])?;
    std::fs::File::open(input).map_err(|e| super::io_err("read", input, e))?;
    check(input)?;
    let mut file = OutFile::create(out, if_exists)?;
    let c = convert_file(input, &mut file, true, None)?;
    file.commit()?;
    Ok(c)
}

fn convert_file(input: &Path, out: &mut OutFile, batch_only: bool, identity: Option<&str>) -> Result<Converted, Error> {
    let open = || std::fs::File::open(input).map(|f| io::BufReader::with_capacity(1 << 16, f));
    let shown = out.path().to_path_buf();
    let mut w = io::BufWriter::with_capacity(1 << 16, out.file());
    let c = convert_with(open, &mut w, batch_only, identity)
        .map_err(|error| Error::Convert { path: input.to_path_buf(), error })?;
    w.flush().map_err(|e| super::io_err("write", &shown, e))?;
    Ok(c)
}

/// The Parquet outputs of a batch, opened before its first game and
/// written by [`Pending::finish`] from the committed CSV files.
#[derive(Debug)]
pub struct Pending {
    format: FileFormat,
    /// Each output's CSV file and Parquet output, the games file first.
    files: Vec<(PathBuf, OutFile)>,
}

/// Prepares a batch's outputs for `format`: returns the CSV file each of
/// `outputs` (flag and path, the games file first) is played into, and the
/// Parquet outputs, already created (`PATH.partial`) and locked, so that
/// an output that cannot be written fails before any game.
///
/// Refused: a special file as a Parquet output, and `--resume` of a
/// Parquet output that exists while its CSV (and `.partial`) does not.
pub fn prepare(
    format: FileFormat,
    outputs: &[(&str, &Path)],
    existing: Existing,
) -> Result<(Vec<PathBuf>, Pending), Error> {
    let csvs: Vec<PathBuf> = outputs.iter().map(|(_, p)| format.csv_path(p)).collect();
    let mut files = Vec::new();
    if format == FileFormat::Csv {
        return Ok((csvs, Pending { format, files }));
    }
    let parquets: Vec<PathBuf> = outputs.iter().filter_map(|(_, p)| format.parquet_path(p)).collect();
    let mut roles: Vec<(String, &Path)> = Vec::new();
    for ((flag, _), (csv, pq)) in outputs.iter().zip(csvs.iter().zip(&parquets)) {
        roles.push((format!("{flag} (Parquet)"), pq));
        roles.push((format!("{flag} (its CSV)"), csv));
    }
    let flags: Vec<(&str, &Path)> = roles.iter().map(|(f, p)| (f.as_str(), *p)).collect();
    output::check_distinct(&[], &flags)?;
    for ((csv, pq), (_, given)) in csvs.iter().zip(&parquets).zip(outputs) {
        for p in [*given, csv, pq] {
            if output::Located::new(p)?.is_special() {
                return Err(Error::Convert { path: given.to_path_buf(), error: ConvertError::Special });
            }
        }
    }
    for (csv, pq) in csvs.iter().zip(&parquets) {
        let loc = output::Located::new(pq)?;
        let if_exists = match existing {
            Existing::Refuse => IfExists::Refuse { resumable: false },
            Existing::Overwrite => IfExists::Overwrite,
            Existing::Resume => {
                if loc.is_file() && !csv.is_file() && !output::partial_path(csv).is_file() {
                    return Err(Error::Convert {
                        path: pq.clone(),
                        error: ConvertError::NothingToResume { csv: csv.clone() },
                    });
                }
                IfExists::Overwrite
            }
        };
        files.push((csv.clone(), OutFile::create(pq, if_exists)?));
    }
    Ok((csvs, Pending { format, files }))
}

impl Pending {
    /// Converts every committed CSV into its Parquet output (companions
    /// before the games file), commits them together ([`output::commit_all`]), then removes the CSV files
    /// unless the format keeps them. Nothing is removed if any fails.
    pub fn finish(self) -> Result<(), Error> {
        let mut files = self.files;
        if files.is_empty() {
            return Ok(());
        }
        let games = files.remove(0);
        // The games file's identity line, for a summary file that has none.
        let identity = std::fs::File::open(&games.0)
            .ok()
            .and_then(|f| io::BufReader::new(f).lines().next())
            .and_then(Result::ok)
            .filter(|l| l.starts_with('#'));
        let mut csvs = Vec::new();
        let mut outs = Vec::new();
        for (csv, mut out) in files.into_iter().chain(std::iter::once(games)) {
            convert_file(&csv, &mut out, false, identity.as_deref())?;
            outs.push(out);
            csvs.push(csv);
        }
        output::commit_all(outs)?;
        if self.format == FileFormat::Parquet {
            for csv in csvs {
                std::fs::remove_file(&csv).map_err(|e| super::io_err("remove", &csv, e))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAMES: &str = "# senat-batch v2 game=focus seed=1\n\
        game,seed,name,score,note\n\
        0,18446744073709551615,a,0.5000,\n\
        1,3,\"b,c\",1e3,x\n\
        2,,d,-2,\n";

    #[test]
    fn a_small_csv_round_trips_with_types_and_identity() {
        let (bytes, c) = convert_bytes(GAMES.as_bytes()).unwrap();
        assert_eq!(c.rows, 3);
        let t = read_table(bytes).unwrap();
        assert_eq!(
            t.columns,
            [
                ("game".to_string(), ColumnType::Int64),
                ("seed".to_string(), ColumnType::UInt64),
                ("name".to_string(), ColumnType::Text),
                ("score".to_string(), ColumnType::Double),
                ("note".to_string(), ColumnType::Text),
            ]
        );
        assert_eq!(t.columns, c.columns);
        assert_eq!(t.metadata, [(IDENTITY_KEY.to_string(), "# senat-batch v2 game=focus seed=1".to_string())]);
        let s = |x: &str| Some(x.to_string());
        assert_eq!(
            t.rows,
            [
                vec![s("0"), s("18446744073709551615"), s("a"), s("0.5"), None],
                vec![s("1"), s("3"), s("b,c"), s("1000"), s("x")],
                vec![s("2"), None, s("d"), s("-2"), None],
            ]
        );
    }

    #[test]
    fn types_are_inferred_conservatively() {
        let kind = |cells: &[&str]| {
            let mut i = Infer::NEW;
            cells.iter().for_each(|c| i.see(c));
            i.kind()
        };
        assert_eq!(kind(&["1", "-2", ""]), ColumnType::Int64);
        assert_eq!(kind(&["1", "18446744073709551615"]), ColumnType::UInt64);
        assert_eq!(kind(&["-1", "18446744073709551615"]), ColumnType::Text);
        assert_eq!(kind(&["01"]), ColumnType::Double);
        assert_eq!(kind(&["+1", "0.25"]), ColumnType::Double);
        assert_eq!(kind(&["9007199254740993", "0.5"]), ColumnType::Text);
        assert_eq!(kind(&["inf"]), ColumnType::Text);
        assert_eq!(kind(&["NaN"]), ColumnType::Text);
        assert_eq!(kind(&["", ""]), ColumnType::Text);
        assert_eq!(kind(&[]), ColumnType::Text);
    }

    #[test]
    fn bad_files_are_refused() {
        let err = |csv: &str| convert_bytes(csv.as_bytes()).unwrap_err();
        assert_eq!(err(""), ConvertError::Empty);
        assert_eq!(err("# id\n"), ConvertError::Empty);
        assert!(matches!(err("a,a\n1,2\n"), ConvertError::Header(_)));
        assert!(matches!(err("a,\n1,2\n"), ConvertError::Header(_)));
        assert_eq!(
            err("# id\na,b\n1,2\n3\n"),
            ConvertError::Row { line: 4, message: "1 fields instead of the header's 2".into() }
        );
        let mut out = Vec::new();
        let not_batch = convert_with(|| Ok("a,b\n1,2\n".as_bytes()), &mut out, true, None).unwrap_err();
        assert_eq!(not_batch, ConvertError::NotBatch);
        assert!(out.is_empty());
    }

    #[test]
    fn a_header_alone_and_many_row_groups_read_back() {
        let t = read_table(convert_bytes(b"# x\n# y\na,b\n").unwrap().0).unwrap();
        assert!(t.rows.is_empty());
        assert_eq!(t.metadata[1], (COMMENTS_KEY.to_string(), "# y".to_string()));
        let mut csv = String::from("# senat-batch v2\ni,t\n");
        let n = ROW_GROUP + 5;
        for i in 0..n {
            csv.push_str(&format!("{i},{}\n", if i % 7 == 0 { "" } else { "m" }));
        }
        let t = read_table(convert_bytes(csv.as_bytes()).unwrap().0).unwrap();
        assert_eq!(t.rows.len(), n);
        assert_eq!(t.rows[n - 1], [Some((n - 1).to_string()), Some("m".to_string())]);
        assert_eq!(t.rows[7][1], None);
    }

    #[test]
    fn formats_parse_and_name_their_files() {
        assert_eq!(FileFormat::parse("parquet,csv").unwrap(), FileFormat::Both);
        assert!(FileFormat::parse("json").is_err());
        let p = Path::new("d/games.csv");
        assert_eq!(FileFormat::Csv.csv_path(p), p);
        assert_eq!(FileFormat::Csv.parquet_path(p), None);
        assert_eq!(FileFormat::Parquet.parquet_path(p).unwrap(), Path::new("d/games.parquet"));
        assert_eq!(FileFormat::Both.csv_path(Path::new("g.parquet")), Path::new("g.csv"));
        assert_eq!(FileFormat::Parquet.csv_path(p), Path::new("d/games.parquet.csv"));
    }
}
