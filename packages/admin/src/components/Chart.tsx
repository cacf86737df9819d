import { useEffect, useRef } from "preact/hooks"
import uPlot from "uplot"
import "uplot/dist/uPlot.min.css"

/** One line of a chart. */
export interface Series {
  readonly label: string
  readonly values: ReadonlyArray<number>
  readonly color: string
}

const HEIGHT = 240

/**
 * A time chart (uPlot): x in Unix seconds, one line per series, as wide as its container. It keeps a fixed height so
 * nothing below it moves while it loads; a table of the same numbers is available to screen readers.
 */
export const Chart = ({ title, times, series, bars = false, step }: {
  title: string
  times: ReadonlyArray<number>
  series: ReadonlyArray<Series>
  bars?: boolean
  /** Seconds between points: the x axis then spans at least a step on each side (one point stays readable). */
  step?: number
}) => {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = box.current
    if (element === null) return
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 200),
      height: HEIGHT,
      legend: { live: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true }, y: { range: (_plot, _min, max) => [0, Math.max(1, max) * 1.1] } },
      axes: [{}, { size: 50 }],
      series: [
        {},
        ...series.map((line) => ({
          label: line.label,
          stroke: line.color,
          width: 2,
          fill: `${line.color}22`,
          ...(bars ? { paths: uPlot.paths.bars!({ size: [0.6, 40] }) } : {})
        }))
      ]
    }
    const plot = new uPlot(options, [[...times], ...series.map((line) => [...line.values])] as uPlot.AlignedData, element)
    const first = times[0]
    const last = times[times.length - 1]
    if (step !== undefined && first !== undefined && last !== undefined && last - first < 2 * step) {
      plot.setScale("x", { min: first - step, max: last + step })
    }
    const observer = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 200), height: HEIGHT }))
    observer.observe(element)
    return () => {
      observer.disconnect()
      plot.destroy()
    }
  }, [times, series, bars, step])
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div ref={box} class="chart-box" role="img" aria-label={`${title}: ${series.map((line) => `${line.label} ${line.values.reduce((a, b) => a + b, 0)} in all`).join(", ")}`} />
    </figure>
  )
}
