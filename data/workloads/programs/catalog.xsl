<?xml version="1.0"?>
<!-- Report over catalog.xml: grouping with keys (Muenchian), sorting, string functions, sums. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="html" indent="yes"/>
  <xsl:key name="by-genre" match="book" use="genre"/>
  <xsl:key name="by-author" match="book" use="author"/>
  <xsl:key name="by-tag" match="tag" use="."/>
  <xsl:template match="/catalog">
    <html><body>
      <h1>Catalog: <xsl:value-of select="count(book)"/> books</h1>
      <xsl:for-each select="book[generate-id() = generate-id(key('by-genre', genre)[1])]">
        <xsl:sort select="genre"/>
        <xsl:variable name="g" select="key('by-genre', genre)"/>
        <h2><xsl:value-of select="translate(genre, 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')"/></h2>
        <p>books: <xsl:value-of select="count($g)"/>, total price: <xsl:value-of select="format-number(sum($g/price), '#.00')"/></p>
        <table>
          <xsl:for-each select="$g[year &gt; 1990]">
            <xsl:sort select="price" data-type="number" order="descending"/>
            <xsl:sort select="title"/>
            <xsl:if test="position() &lt;= 40">
              <tr><td><xsl:value-of select="@id"/></td><td><xsl:value-of select="substring(title, 1, 30)"/></td>
                <td><xsl:value-of select="author"/></td><td><xsl:value-of select="price"/></td>
                <td><xsl:value-of select="count(key('by-author', author))"/></td>
                <td><xsl:value-of select="string-length(normalize-space(abstract))"/></td></tr>
            </xsl:if>
          </xsl:for-each>
        </table>
      </xsl:for-each>
      <h2>Frequent tags</h2>
      <ul>
        <xsl:for-each select="book/tags/tag[generate-id() = generate-id(key('by-tag', .)[1])]">
          <xsl:sort select="count(key('by-tag', .))" data-type="number" order="descending"/>
          <xsl:if test="position() &lt;= 100">
            <li><xsl:value-of select="."/>: <xsl:value-of select="count(key('by-tag', .))"/></li>
          </xsl:if>
        </xsl:for-each>
      </ul>
      <h2>Books with "the" in the abstract, by language</h2>
      <xsl:for-each select="book[@lang = 'de' and contains(abstract, ' the ') and year mod 3 = 0]">
        <xsl:sort select="year" data-type="number"/>
        <p><xsl:value-of select="concat(year, ': ', title, ' (', author, ')')"/></p>
      </xsl:for-each>
    </body></html>
  </xsl:template>
</xsl:stylesheet>
